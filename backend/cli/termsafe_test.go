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

// TestSafeTextShowsWhatReordersOrHides: the bidi controls and the invisible characters are
// spelled out where they were, a byte that is no UTF-8 (a raw 8-bit CSI) becomes U+FFFD and
// loses its power, C1 and C0 controls go; the joiners emoji and scripts need, and text in a
// right-to-left script, print as they are.
func TestSafeTextShowsWhatReordersOrHides(t *testing.T) {
	for in, want := range map[string]string{
		"a\u202eb\u202ac\u202bd\u202ce\u202df":             "a<U+202E>b<U+202A>c<U+202B>d<U+202C>e<U+202D>f",
		"\u2066i\u2067j\u2068k\u2069":                      "<U+2066>i<U+2067>j<U+2068>k<U+2069>",
		"\u200el\u200fm\u061cn":                            "<U+200E>l<U+200F>m<U+061C>n",
		"zero\u200bwidth\u2060join\ufeffbom":               "zero<U+200B>width<U+2060>join<U+FEFF>bom",
		"tag\U000e0041\U000e007f":                          "tag<U+E0041><U+E007F>",
		"raw \x9b2J byte":                                  "raw \uFFFD2J byte",
		"c1 \u009b2J \u0085nel":                            "c1 2J nel",
		"bell\a back\b del\x7f":                            "bell back del",
		"👩\u200d💻 \u0645\u0631\u062d\u0628\u0627 \u200cok": "👩\u200d💻 \u0645\u0631\u062d\u0628\u0627 \u200cok",
	} {
		if got := safeText(in); got != want {
			t.Errorf("safeText(%q) = %q, want %q", in, got, want)
		}
	}
	if got := safeLine("title\nforged row\tcell\r"); got != "title forged row cell" {
		t.Errorf("safeLine kept a line break or tab: %q", got)
	}
}

// TestEscapeJSONKeepsTheValue: JSON with every character the filter drops or spells out is
// written with \u escapes only: nothing raw for a terminal, and the same value decoded.
func TestEscapeJSONKeepsTheValue(t *testing.T) {
	value := map[string]string{"text": hostile + " \u202egpj.exe \u2066x\u2069 del\x7f tag\U000e0041 bom\ufeff 👩\u200d💻"}
	j, _ := json.Marshal(value)
	esc := escapeJSON(j)
	if at, r := unsafeAt(string(esc)); at >= 0 {
		t.Fatalf("%U raw at %d: %s", r, at, esc)
	}
	var back map[string]string
	if err := json.Unmarshal(esc, &back); err != nil || back["text"] != value["text"] {
		t.Fatalf("decoded %q (%v), want %q", back["text"], err, value["text"])
	}
	if !strings.Contains(string(esc), `\u202e`) || !strings.Contains(string(esc), `\udb40\udc41`) || !strings.Contains(string(esc), "👩\u200d💻") {
		t.Errorf("escaped as %s", esc)
	}
}

// TestScreenCoversWhatNoCommandFilters: Run makes stdout and stderr screens, so even text no
// command wrote (pflag's own error, naming a flag of the command line as typed) reaches no terminal
// raw; and the completion scripts, which must be exact, pass the filter unchanged.
func TestScreenCoversWhatNoCommandFilters(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := execute(nil, &out, &errOut, "history", "--\x1b]0;pwned\a\u202eword"); code != ExitUsage {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	if at, r := unsafeAt(errOut.String()); at >= 0 || !strings.Contains(errOut.String(), "<U+202E>word") {
		t.Errorf("stderr holds %U at %d: %q", r, at, errOut.String())
	}
	root := newRoot(Stdio{}, Options{})
	for shell, gen := range map[string]func(*bytes.Buffer) error{
		"bash":       func(b *bytes.Buffer) error { return root.GenBashCompletionV2(b, true) },
		"zsh":        func(b *bytes.Buffer) error { return root.GenZshCompletion(b) },
		"fish":       func(b *bytes.Buffer) error { return root.GenFishCompletion(b, true) },
		"powershell": func(b *bytes.Buffer) error { return root.GenPowerShellCompletionWithDesc(b) },
	} {
		var script, got bytes.Buffer
		if err := gen(&script); err != nil {
			t.Fatal(err)
		}
		if code := execute(nil, &got, &errOut, "completion", shell); code != ExitOK || got.String() != script.String() {
			t.Errorf("completion %s: exit %d, the script changed on its way (%d bytes, want %d)", shell, code, got.Len(), script.Len())
		}
	}
}
