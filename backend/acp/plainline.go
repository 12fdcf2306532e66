package acp

import (
	"strings"
	"unicode"
)

// plainLine is what the window shows of a short name the agent chose (a tool call's name, a
// prompt suggestion, the title it stored): one line, at most max bytes (cut on a character
// boundary, marked "…"), with control characters (C0, C1) and the characters that reorder or
// hide text (bidi controls, zero-width space, word joiners, BOM, tag characters) dropped and
// runs of white space made one space. The page never has to clean it again.
func plainLine(s string, max int) string {
	var b strings.Builder
	space := false
	for _, r := range s {
		switch {
		case unicode.IsSpace(r) || r < 0x20 || (r >= 0x7f && r <= 0x9f):
			space = b.Len() > 0
			continue
		case hiddenRune(r):
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	return cutText(b.String(), max)
}

// hiddenRune reports whether r reorders the text around it or is invisible: the bidi controls,
// the zero-width space, word joiners and invisible operators (U+2060–U+2064), the byte order
// mark and the tag characters. Joiners that emoji and scripts need (U+200C, U+200D) stay.
func hiddenRune(r rune) bool {
	return unicode.Is(unicode.Bidi_Control, r) || r == 0x200b || (r >= 0x2060 && r <= 0x2064) || r == 0xfeff ||
		(r >= 0xe0000 && r <= 0xe007f)
}
