package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// planted is what a hostile agent writes in every text it controls: a clipboard write (OSC 52),
// a title (OSC 0), a screen clear (CSI 2J), a carriage return printing over the words before it,
// a C1 CSI (U+009B), and a right-to-left override with an isolate (file name spoofing).
const planted = "\x1b]52;c;ZXZpbA==\x07clip\x1b]0;pwned\x1b\\ \x1b[2Jclear over\rtyped \u009b31mc1 \u202egpj.exe\u2066iso\u2069"

// plantingTurn plays an agent that plants its escapes everywhere the command line prints from:
// a thought, a message, a tool call's title, two permission titles (one a rule answers, the other
// with a line break before words that would pose as a row of their own), a link
// question whose URL's path holds the override, and a file, written by a command, whose name and
// content hold them.
func plantingTurn() string {
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	perm := func(id, title string) string {
		return `{"call":"session/request_permission","params":{"toolCall":{"toolCallId":"` + id + `","title":` + q(title) +
			`,"kind":"edit"},"options":[{"optionId":"a1","name":"Allow","kind":"allow_once"},{"optionId":"r1","name":"Reject","kind":"reject_once"}]},"want":"a1"}`
	}
	return "[" + handshake + `
	{"expect":"session/prompt"},
	{"update":{"sessionUpdate":"agent_thought_chunk","content":{"type":"text","text":` + q(planted) + `}}},
	{"update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":` + q(planted+"\n") + `}}},
	{"update":{"sessionUpdate":"tool_call","toolCallId":"t0","title":` + q("tool "+planted) + `,"kind":"read","status":"completed"}},
	` + perm("t1", "rule "+planted) + `,
	` + perm("t2", "ask "+planted+"\nforged row") + `,
	{"call":"elicitation/create","params":{"mode":"url","message":` + q("log in "+planted) + `,"url":"https://example.com/dl/\u202egpj.exe","elicitationId":"e1"}},
	{"call":"terminal/create","params":{"command":"sh","args":["-c","printf '%s\\n' \"$1\" > \"$2\"","sh",` +
		q(planted) + `,` + q("f\x1b]0;t\x07\u202etxt.exe") + `]},"want":"term-1"},
	{"call":"terminal/wait_for_exit","params":{"terminalId":"term-1"}},
	{"reply":{"stopReason":"end_turn"}}]`
}

// TestEveryCommandKeepsAgentEscapesOffTheTerminal: after a real run of an agent that planted
// escape sequences, C1 controls, a carriage return and bidi overrides in everything it could,
// no command prints any of them, on stdout or stderr: run, history, show, export to stdout,
// changes, revert, audit, usage and rules list. The words stay, and the bidi controls show
// visibly (<U+202E>) where they were. Every JSON output carries the text exactly, escaped, and
// export -o writes the exact document.
func TestEveryCommandKeepsAgentEscapesOffTheTerminal(t *testing.T) {
	isolatedConfig(t)
	t.Setenv("AGENTDESK_DEMO_PACE", "0s")
	dir, proj := t.TempDir(), t.TempDir()
	db := filepath.Join(dir, "h.db")
	script := filepath.Join(dir, "plant.json")
	if err := os.WriteFile(script, []byte(plantingTurn()), 0o600); err != nil {
		t.Fatal(err)
	}
	self, _ := os.Executable()
	var out, errOut bytes.Buffer
	cli := func(stdin string, args ...string) string {
		t.Helper()
		out.Reset()
		errOut.Reset()
		if code := execute(strings.NewReader(stdin), &out, &errOut, args...); code != ExitOK && !(args[0] == "revert" && code == ExitConflict) {
			t.Fatalf("%q: exit %d\n%s%s", args, code, out.String(), errOut.String())
		}
		return out.String()
	}
	cli("", "rules", "add", "--db", db, "--agent", "any", "--folder", proj, "--kind", "edit", "--tool", "rule "+planted, "--allow")
	ran := cli("", "run", "--db", db, "--agent-cmd", "'"+self+"' demo-agent --script "+script, "--cwd", proj, "--permissions", "allow", "fix "+planted)
	id := strings.Fields(cli("", "history", "--db", db))[0][:8]

	type output struct{ name, text string }
	outs := []output{{"run", ran}}
	var shown []output // the outputs that show the agent's words or the file's name
	text := func(args ...string) string {
		t.Helper()
		s := cli("n\n", args...)
		outs = append(outs, output{args[0] + " (stdout)", s}, output{args[0] + " (stderr)", errOut.String()})
		if args[0] != "audit" && args[0] != "usage" && args[0] != "rules" {
			shown = append(shown, outs[len(outs)-2])
		}
		return s
	}
	text("history", "--db", db)
	text("history", "--db", db, "--search", "clip")
	text("show", "--db", db, id)
	text("export", "--db", db, id)
	text("changes", "--db", db, id)
	text("revert", "--db", db, id, "--turn", "1")
	text("audit", "--db", db)
	text("usage", "--db", db, "--by", "session")
	text("rules", "list", "--db", db)
	for _, o := range outs {
		if at, r := unsafeAt(o.text); at >= 0 {
			t.Errorf("%s printed %U at %d:\n%q", o.name, r, at, o.text)
		}
		if strings.Contains(o.text, "\nforged row") {
			t.Errorf("%s let a title forge a line of its own:\n%s", o.name, o.text)
		}
	}
	for _, o := range append(shown, outs[0]) {
		want := []string{"clip clear", "<U+202E>gpj.exe<U+2066>iso<U+2069>"}
		switch o.name {
		case "revert (stdout)":
			want = []string{"f<U+202E>txt.exe"}
		case "changes (stdout)", "run":
			want = append(want, "f<U+202E>txt.exe")
		}
		for _, w := range want {
			if !strings.Contains(o.text, w) {
				t.Errorf("%s lacks %q (words lost, or an override hidden):\n%s", o.name, w, o.text)
			}
		}
	}
	if !strings.Contains(ran, "link: https://example.com/dl/<U+202E>gpj.exe") {
		t.Errorf("run hid the override in the link:\n%s", ran)
	}

	// JSON: exact text, escaped.
	exact := func(name, s string) {
		t.Helper()
		if at, r := unsafeAt(s); at >= 0 {
			t.Errorf("%s: %U raw in the JSON at %d", name, r, at)
		}
		found := false
		dec := json.NewDecoder(strings.NewReader(s))
		for dec.More() {
			var v any
			if err := dec.Decode(&v); err != nil {
				t.Fatalf("%s is not JSON: %v\n%s", name, err, s)
			}
			found = found || holds(v, planted)
		}
		if !found {
			t.Errorf("%s does not carry the agent's text exactly:\n%s", name, s)
		}
	}
	exact("show --format json", cli("", "show", "--db", db, "--format", "json", id))
	exact("export --format json", cli("", "export", "--db", db, "--format", "json", id))
	exact("history --json", cli("", "history", "--db", db, "--json"))
	exact("audit --json", cli("", "audit", "--db", db, "--json"))
	exact("rules list --json", cli("", "rules", "list", "--db", db, "--json"))
	exact("rules export", cli("", "rules", "export", "--db", db))
	exact("run --output json", cli("", "run", "--db", db, "--agent-cmd", "'"+self+"' demo-agent --script "+script,
		"--cwd", t.TempDir(), "--permissions", "allow", "--output", "json", "again"))

	cli("", "export", "--db", db, id, "-o", filepath.Join(dir, "doc.md"))
	if doc, err := os.ReadFile(filepath.Join(dir, "doc.md")); err != nil || !strings.Contains(string(doc), "\x1b]52;c;ZXZpbA==\x07clip") {
		t.Errorf("export -o is not the exact document (%v):\n%q", err, doc)
	}
}

// unsafeAt is the first byte offset in s of what a terminal would obey or a person would not
// see: a control character but newline and tab, DEL, a C1 control, a byte that is no UTF-8,
// or a bidi control; -1 if none.
func unsafeAt(s string) (int, rune) {
	for i, r := range s {
		if _, size := utf8.DecodeRuneInString(s[i:]); (r == utf8.RuneError && size == 1) || (r < 0x20 && r != '\n' && r != '\t') || (r >= 0x7f && r <= 0x9f) || unicode.Is(unicode.Bidi_Control, r) {
			return i, r
		}
	}
	return -1, 0
}

// holds reports whether any string in the decoded JSON value v contains s.
func holds(v any, s string) bool {
	switch v := v.(type) {
	case string:
		return strings.Contains(v, s)
	case []any:
		for _, e := range v {
			if holds(e, s) {
				return true
			}
		}
	case map[string]any:
		for k, e := range v {
			if strings.Contains(k, s) || holds(e, s) {
				return true
			}
		}
	}
	return false
}

// TestRunShowsAnOverrideInALinkVisibly: a link whose path holds a right-to-left override is
// shown with the override spelled out, in the transcript and in the question asked on the
// terminal, so "gpj.exe" cannot pass for "exe.jpg".
func TestRunShowsAnOverrideInALinkVisibly(t *testing.T) {
	isolatedConfig(t)
	dir := t.TempDir()
	script := filepath.Join(dir, "link.json")
	os.WriteFile(script, []byte("["+handshake+`
	{"expect":"session/prompt"},
	{"call":"elicitation/create","params":{"mode":"url","message":"Get the photo","url":"https://example.com/dl/\u202egpj.exe","elicitationId":"e1"},"want":"decline"},
	{"reply":{"stopReason":"end_turn"}}]`), 0o600)
	self, _ := os.Executable()
	var out, errOut bytes.Buffer
	code := runCLI([]string{"--db", filepath.Join(dir, "l.db"), "--agent-cmd", "'" + self + "' demo-agent --script " + script,
		"--cwd", dir, "--permissions", "ask", "go"}, strings.NewReader("n\n"), &out, &errOut)
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, out.String(), errOut.String())
	}
	for _, want := range []string{"link: https://example.com/dl/<U+202E>gpj.exe (host example.com)",
		"Open https://example.com/dl/<U+202E>gpj.exe (host example.com) in your browser? [y/N]"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	if at, r := unsafeAt(out.String() + errOut.String()); at >= 0 {
		t.Errorf("%U printed at %d:\n%q", r, at, out.String())
	}
}
