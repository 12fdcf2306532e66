package cli

import (
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"agentdesk/backend/acp/terminal"
)

// An agent's words reach the person's terminal through the command line, and an agent is
// untrusted: an escape sequence in a message, a tool title or a file name could set the
// terminal's title, write to its clipboard (OSC 52), clear the screen, move the cursor over a
// permission question or hide text; a carriage return could print a harmless command over a
// dangerous one; a right-to-left override could show "gpj.exe" as "exe.jpg". So every text a
// command prints goes through safeText: the commands write on a screen (screen.go), never on the
// process's streams. chat's own styling is written apart (printOwn).

// safeText is s as it may reach a terminal: bytes that are no UTF-8 become U+FFFD; escape
// sequences are removed whole (terminal.PlainText); every other control character but
// newline and tab is dropped, C1 controls (U+0080–U+009F, which some terminals obey), DEL and
// carriage return included; and the characters that reorder or hide text (hiddenRune) are
// shown as their code point, <U+202E>, so the person sees the trick instead of falling for it.
func safeText(s string) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	s = terminal.PlainText(s)
	if !strings.ContainsFunc(s, func(r rune) bool { return isUnsafeRune(r) || hiddenRune(r) }) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for _, r := range s {
		switch {
		case isUnsafeRune(r):
		case hiddenRune(r):
			fmt.Fprintf(&b, "<U+%04X>", r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// safeLine is safeText on one line, for a name, a title or a table's cell: tabs and line
// breaks become spaces, so a title cannot forge a row of its own.
func safeLine(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\n' || r == '\t' {
			return ' '
		}
		return r
	}, safeText(s))
}

func isUnsafeRune(r rune) bool {
	return (r < 0x20 && r != '\n' && r != '\t') || (r >= 0x7f && r <= 0x9f)
}

// hiddenRune reports whether r reorders the text around it or is invisible: the bidi controls
// (U+061C, U+200E–U+200F, U+202A–U+202E, U+2066–U+2069), the zero-width space, the word joiner
// and invisible operators (U+2060–U+2064), the byte order mark and the tag characters
// (U+E0000–U+E007F, text a terminal does not show). Joiners that emoji and scripts need
// (U+200C, U+200D) print as they are.
func hiddenRune(r rune) bool {
	switch {
	case r < 0x61c:
		return false
	case unicode.Is(unicode.Bidi_Control, r), r == 0x200b, r >= 0x2060 && r <= 0x2064, r == 0xfeff, r >= 0xe0000 && r <= 0xe007f:
		return true
	}
	return false
}

// safeWriter writes through safeText. Each Write is filtered on its own: a sequence split across
// two writes loses its ESC in the first, so what is left of it prints as plain text.
type safeWriter struct{ w io.Writer }

var _ io.Writer = safeWriter{}

// Write writes safeText(p) and reports all of p written when that succeeds.
func (s safeWriter) Write(p []byte) (int, error) {
	if _, err := io.WriteString(s.w, safeText(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// escapeJSON is JSON text j with every character a terminal would obey or not show written as a
// \u escape: the same JSON value, whose text a script decodes exactly, and a terminal shows
// harmlessly. (encoding/json escapes C0 controls itself, not DEL, C1 or hiddenRune.) Outside
// strings, valid JSON has none of them, so escaping them everywhere is escaping them in strings.
func escapeJSON(j []byte) []byte {
	if !strings.ContainsFunc(string(j), func(r rune) bool { return isUnsafeRune(r) || hiddenRune(r) || r == utf8.RuneError }) {
		return j
	}
	out := make([]byte, 0, len(j)+32)
	for len(j) > 0 {
		r, size := utf8.DecodeRune(j)
		switch {
		case r == utf8.RuneError && size == 1:
			out = append(out, `\ufffd`...) // a byte that is no UTF-8, as encoding/json writes it
		case isUnsafeRune(r) || hiddenRune(r):
			if r > 0xffff {
				hi, lo := utf16.EncodeRune(r)
				out = fmt.Appendf(out, `\u%04x\u%04x`, hi, lo)
			} else {
				out = fmt.Appendf(out, `\u%04x`, r)
			}
		default:
			out = append(out, j[:size]...)
		}
		j = j[size:]
	}
	return out
}
