package acp

import (
	"strings"
	"testing"
)

// What an agent names is shown as one plain line: controls and characters that reorder or hide
// text are dropped, white space runs are one space, and the bound cuts on a character boundary.
func TestPlainLine(t *testing.T) {
	for in, want := range map[string]string{
		"Read\u202eexe.txt":           "Readexe.txt",
		"  two\n\tlines\r\n ":         "two lines",
		"bell\u0007 and \u009bcsi":    "bell and csi",
		"zero\u200bwidth\ufeff\u2066": "zerowidth",
		"tag\U000E0041s":              "tags",
		"emoji 👩\u200d💻":              "emoji 👩\u200d💻",
	} {
		if got := plainLine(in, 100); got != want {
			t.Errorf("plainLine(%q) = %q, want %q", in, got, want)
		}
	}
	if got := plainLine(strings.Repeat("é", 100), 11); got != "éééé…" {
		t.Errorf("cut %q (%d bytes)", got, len(got))
	}
}
