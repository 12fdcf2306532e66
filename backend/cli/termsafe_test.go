package cli

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"agentdesk/backend/acp"
)

// hostile is agent text that would drive a terminal: a clipboard write (OSC 52), a title, a
// screen clear, a carriage return over a command, a C1 CSI and a bell.
const hostile = "\x1b]52;c;ZXZpbA==\x07safe\x1b]0;pwned\x1b\\ \x1b[2Jls\rrm -rf ~\u009b31m\a done"

// TestPrinterKeepsAgentEscapesOffTheTerminal: in text mode nothing an agent wrote reaches the
// terminal as a control sequence, from a message chunk or a tool title; the words stay. In JSON
// mode the line carries the text exactly, escaped by JSON.
func TestPrinterKeepsAgentEscapesOffTheTerminal(t *testing.T) {
	var out bytes.Buffer
	p := newPrinter(&out)
	p.print(acp.Event{Kind: acp.EventChunk, EntryID: "a1", Text: hostile})
	p.print(acp.Event{Kind: acp.EventEntry, Entry: &acp.Entry{ID: "t1", Kind: acp.KindTool, Title: "run \x1b[8mhidden", ToolKind: "execute", Status: "pending"}})
	p.printf("[permission] %s\n", "edit \x1b[1Afile")
	got := out.String()
	if i := strings.IndexFunc(got, isUnsafeRune); i >= 0 {
		t.Fatalf("a control character reached the terminal at %d: %q", i, got)
	}
	for _, want := range []string{"safe", "lsrm -rf ~", "done", "run hidden", "edit file"} {
		if !strings.Contains(got, want) {
			t.Fatalf("%q lost the words %q", got, want)
		}
	}

	var js bytes.Buffer
	jp := newJSONPrinter(&js, &bytes.Buffer{})
	jp.print(acp.Event{Kind: acp.EventChunk, EntryID: "a1", Text: hostile})
	if strings.ContainsRune(js.String(), 0x1b) {
		t.Fatalf("a raw ESC in the JSON line: %q", js.String())
	}
	var ev acp.Event
	if err := json.Unmarshal(js.Bytes(), &ev); err != nil || ev.Text != hostile {
		t.Fatalf("the JSON line carries %q (%v), want the text as sent", ev.Text, err)
	}
}
