package cli

import (
	"io"
	"strings"

	"agentdesk/backend/acp"
)

// An agent's words reach the person's terminal through the printer, and an agent is untrusted:
// an escape sequence in a message or a tool title could set the terminal's title, write to its
// clipboard (OSC 52), move the cursor over a permission question, or hide text, and a carriage
// return could print a harmless command over a dangerous one. So what the printer writes of an
// agent's text goes through safeText first. chat's own styling is written apart (printOwn).

// safeText is s as it may reach a terminal: its escape sequences removed whole
// (acp.PlainTerminalText), then every control character but newline and tab, C1 controls
// (U+0080–U+009F, which some terminals obey) and DEL included.
func safeText(s string) string {
	s = acp.PlainTerminalText(s)
	if !strings.ContainsFunc(s, isUnsafeRune) {
		return s
	}
	return strings.Map(func(r rune) rune {
		if isUnsafeRune(r) {
			return -1
		}
		return r
	}, s)
}

func isUnsafeRune(r rune) bool {
	return (r < 0x20 && r != '\n' && r != '\t') || (r >= 0x7f && r <= 0x9f)
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
