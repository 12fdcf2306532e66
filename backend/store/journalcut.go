package store

import (
	"bytes"
	"fmt"
	"unicode/utf8"
)

// The journal keeps what the protocol inspector shows, not the transcript: the text of a
// message is saved in its entry. So a huge message (an agent's 50 MB line) is not saved a
// second time whole: past maxJournalBytes its strings are cut, and the message stays JSON.

// maxJournalBytes is about the most string content a journal message keeps.
const maxJournalBytes = 1 << 20

// minStringHead is what a cut string keeps at least, once the budget is spent.
const minStringHead = 64

// cutJournal returns a copy of msg. Longer than maxJournalBytes, its string literals are kept
// whole until their content reaches maxJournalBytes; a string that goes past that keeps its
// first bytes (at least minStringHead, cut at a character, never inside an escape) and then
// says how many bytes were cut ("…[47.2 MB cut]"). Keys, numbers and punctuation stay, so
// the message still reads as the same JSON. One whose strings are not what makes it long (a
// huge array of numbers) is kept as a JSON object that says its length.
func cutJournal(msg []byte) []byte {
	if len(msg) <= maxJournalBytes {
		return bytes.Clone(msg)
	}
	out := make([]byte, 0, maxJournalBytes+4<<10)
	budget := maxJournalBytes
	for i := 0; i < len(msg); {
		q := bytes.IndexByte(msg[i:], '"')
		if q < 0 {
			out = append(out, msg[i:]...)
			break
		}
		out = append(out, msg[i:i+q+1]...)
		start := i + q + 1
		end := stringEnd(msg, start) // the closing quote, or len(msg)
		if n := end - start; n <= max(budget, minStringHead) {
			out = append(out, msg[start:end]...)
			budget = max(0, budget-n)
		} else {
			head := cutPoint(msg[start:end], max(budget, minStringHead))
			out = append(out, msg[start:start+head]...)
			out = fmt.Appendf(out, "…[%s cut]", byteSize(n-head))
			budget = 0
		}
		if end < len(msg) {
			out = append(out, '"')
		}
		i = end + 1
		if len(out) > 2*maxJournalBytes {
			break
		}
	}
	if len(out) > 2*maxJournalBytes {
		return fmt.Appendf(nil, `{"agentdeskJournal":"a message of %d bytes, too long to keep"}`, len(msg))
	}
	return out
}

// stringEnd returns the index of the quote that ends the JSON string whose content starts at
// start, or len(msg) if none does.
func stringEnd(msg []byte, start int) int {
	for i := start; i < len(msg); {
		j := bytes.IndexAny(msg[i:], `"\`)
		if j < 0 {
			return len(msg)
		}
		if msg[i+j] == '"' {
			return i + j
		}
		i += j + 2 // an escape: the next byte is never the end
	}
	return len(msg)
}

// cutPoint returns where to cut the string content s to keep at most n < len(s) bytes: not
// inside an escape sequence, nor inside a UTF-8 character.
func cutPoint(s []byte, n int) int {
	cut := 0
	for cut < n {
		step := 1
		if s[cut] == '\\' {
			step = 2
			if cut+1 < len(s) && s[cut+1] == 'u' {
				step = 6
			}
		}
		if cut+step > n {
			break
		}
		cut += step
	}
	for cut > 0 && cut < len(s) && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return cut
}

// byteSize renders n bytes for a person: "812 bytes", "47.2 MB".
func byteSize(n int) string {
	switch {
	case n < 1<<10:
		return fmt.Sprintf("%d bytes", n)
	case n < 1<<20:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	default:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	}
}
