package terminal

import "unicode/utf8"

// Buffer keeps the tail of a terminal's output within a byte limit. When output goes over
// the limit the oldest bytes are dropped, and the cut is moved forward to the next character
// boundary, so what is kept never starts inside a UTF-8 sequence (it may then be a few bytes
// under the limit). It is not safe for concurrent use: the terminal guards it.
type Buffer struct {
	limit int
	buf   []byte
	start int  // buf[start:] is the kept output; the head is reclaimed lazily
	cut   bool // something was ever dropped
}

// NewBuffer keeps at most limit bytes.
func NewBuffer(limit int) Buffer { return Buffer{limit: limit} }

// Truncated reports whether output was ever dropped from the front.
func (b *Buffer) Truncated() bool { return b.cut }

// Write appends p and drops from the front what goes over the limit. Writing costs amortised
// O(len(p)): the kept bytes are moved only when the dropped head has grown as large as them.
func (b *Buffer) Write(p []byte) {
	b.buf = append(b.buf, p...)
	if over := len(b.buf) - b.start - b.limit; over > 0 {
		b.start += over
		// At most UTFMax-1 continuation bytes follow a boundary in valid text; binary output
		// is cut where it falls.
		for n := 0; n < utf8.UTFMax-1 && b.start < len(b.buf) && !utf8.RuneStart(b.buf[b.start]); n++ {
			b.start++
		}
		b.start = skipPartialSGR(b.buf, b.start) // a card's colours: never start inside one
		b.cut = true
	}
	if b.start > 0 && b.start >= len(b.buf)-b.start {
		b.buf = append(b.buf[:0], b.buf[b.start:]...)
		b.start = 0
	}
}

// Bytes is the kept output, valid until the next write. While more may come (complete is false),
// an unfinished character at the very end is held back, so a reader never sees half of a
// character that a later read completes.
func (b *Buffer) Bytes(complete bool) []byte {
	out := b.buf[b.start:]
	if !complete {
		out = out[:len(out)-partialTail(out)]
	}
	return out
}

// partialTail is how many bytes at the end of p are the start of a character whose remaining
// bytes have not arrived yet (0 when p ends on a boundary or with invalid bytes).
func partialTail(p []byte) int {
	for n := 1; n <= utf8.UTFMax-1 && n <= len(p); n++ {
		c := p[len(p)-n]
		if utf8.RuneStart(c) {
			if c >= utf8.RuneSelf && !utf8.FullRune(p[len(p)-n:]) {
				return n
			}
			return 0
		}
	}
	return 0
}

// tailOnBoundary returns the last at most max bytes of s, starting on a character boundary, and
// whether anything was cut.
func tailOnBoundary(s []byte, max int) ([]byte, bool) {
	if len(s) <= max {
		return s, false
	}
	i := len(s) - max
	for n := 0; n < utf8.UTFMax-1 && i < len(s) && !utf8.RuneStart(s[i]); n++ {
		i++
	}
	return s[i:], true
}
