package cli

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// Flags go before or after the arguments: a prompt followed by flags is the prompt alone, and
// show takes --format after the id. Against a real temp database.
func TestCLIFlagsAfterTheArguments(t *testing.T) {
	t.Setenv("AGENTDESK_DEMO_PACE", "0s")
	db := t.TempDir() + "/cli.db"
	var out, errOut bytes.Buffer
	code := execute(strings.NewReader(""), &out, &errOut, "run", "fix it", "--agent", "demo", "--db", db, "--permissions", "allow", "--cwd", t.TempDir())
	if code != ExitOK || !strings.Contains(out.String(), "> fix it\n") || strings.Contains(out.String(), "--agent") {
		t.Fatalf("run with the flags after the prompt: exit %d\n%s\n%s", code, out.String(), errOut.String())
	}
	out.Reset()
	if code := execute(nil, &out, &errOut, "history", "--db", db); code != ExitOK {
		t.Fatalf("history: exit %d: %s", code, errOut.String())
	}
	id := strings.Fields(out.String())[0]
	out.Reset()
	if code := execute(nil, &out, &errOut, "show", id[:8], "--format", "json", "--db", db); code != ExitOK {
		t.Fatalf("show ID --format json: exit %d: %s", code, errOut.String())
	}
	var doc struct {
		ID    string `json:"id"`
		Title string `json:"title"`
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil || doc.ID != id || doc.Title != "fix it" {
		t.Fatalf("show ID --format json printed (%v):\n%s", err, out.String())
	}
	// "--" ends the flags: what follows is the prompt, dashes and all.
	out.Reset()
	code = execute(strings.NewReader(""), &out, &errOut, "run", "--db", db, "--permissions", "reject", "--cwd", t.TempDir(), "--", "--help me")
	if code != ExitOK || !strings.Contains(out.String(), "> --help me\n") {
		t.Fatalf("run -- --help me: exit %d\n%s\n%s", code, out.String(), errOut.String())
	}
}

// Every command has --help: its usage on stdout, exit 0, nothing run.
func TestCLIHelpOnEveryCommand(t *testing.T) {
	for _, c := range []struct{ args, want []string }{
		{[]string{"--help"}, []string{"Without arguments it opens the window", "run", "history", "show", "demo-agent", "completion"}},
		{[]string{"help"}, []string{"Without arguments it opens the window"}},
		{[]string{"run", "--help"}, []string{"agentdesk run [flags] PROMPT...", "--permissions", "--hard-stop-after", "Exit codes"}},
		{[]string{"history", "-h"}, []string{"agentdesk history [flags]", "--search", "--db"}},
		{[]string{"show", "--help"}, []string{"agentdesk show [flags] ID", "--format"}},
		{[]string{"demo-agent", "--help"}, []string{"--pace", "--script"}},
		{[]string{"completion", "--help"}, []string{"bash", "zsh", "fish"}},
		{[]string{"help", "show"}, []string{"agentdesk show [flags] ID"}},
	} {
		var out, errOut bytes.Buffer
		code := execute(nil, &out, &errOut, c.args...)
		if code != ExitOK || errOut.Len() != 0 {
			t.Errorf("%v: exit %d, stderr %q", c.args, code, errOut.String())
		}
		for _, w := range c.want {
			if !strings.Contains(out.String(), w) {
				t.Errorf("%v: the help lacks %q:\n%s", c.args, w, out.String())
			}
		}
	}
}

// An unknown flag, a bad value or a missing argument is a usage error: exit 2, the reason and
// the command's usage line on stderr, nothing on stdout. Go-style single-dash long flags are
// unknown too: pflag reads -db as the shorthands d and b.
func TestCLIUsageErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"show", "abc", "--bogus"}, "unknown flag: --bogus"},
		{[]string{"history", "-db", "x.db"}, "unknown shorthand flag: 'd' in -db"},
		{[]string{"run", "--cancel-after", "soon", "hi"}, `invalid argument "soon" for "--cancel-after"`},
		{[]string{"show"}, "give one session id"},
		{[]string{"show", "a", "b"}, "give one session id"},
		{[]string{"history", "extra"}, "unknown command"},
		{[]string{"run"}, "give a prompt"},
		{[]string{"run", "--permissions", "maybe", "x"}, "--permissions must be ask, allow or reject"},
	} {
		var out, errOut bytes.Buffer
		code := execute(nil, &out, &errOut, c.args...)
		cmd := "agentdesk " + c.args[0]
		if code != ExitUsage || out.Len() != 0 || !strings.Contains(errOut.String(), c.want) ||
			!strings.Contains(errOut.String(), "Usage: "+cmd+" ") || !strings.Contains(errOut.String(), "Run '"+cmd+" --help'") {
			t.Errorf("%v: exit %d, stdout %q, stderr:\n%s", c.args, code, out.String(), errOut.String())
		}
	}
}

// completion prints a script for each shell; the hidden request the scripts send completes
// flag values.
func TestCLICompletion(t *testing.T) {
	for _, shell := range []string{"bash", "zsh", "fish"} {
		var out, errOut bytes.Buffer
		if code := execute(nil, &out, &errOut, "completion", shell); code != ExitOK || !strings.Contains(out.String(), "agentdesk") || out.Len() < 1000 {
			t.Errorf("completion %s: exit %d, %d bytes, stderr %q", shell, code, out.Len(), errOut.String())
		}
	}
	var out, errOut bytes.Buffer
	if code := execute(nil, &out, &errOut, "__complete", "show", "x", "--format", ""); code != ExitOK ||
		!strings.HasPrefix(out.String(), "md\njson\n") {
		t.Errorf("completing --format: exit %d:\n%s", code, out.String())
	}
	out.Reset()
	if code := execute(nil, &out, &errOut, "__complete", "run", "--agent", ""); code != ExitOK || !strings.Contains(out.String(), "demo\t") {
		t.Errorf("completing --agent: exit %d:\n%s", code, out.String())
	}
}

// main starts the window for anything that is not a command: Wails' own dev flags included.
func TestIsCommand(t *testing.T) {
	for _, args := range [][]string{{"run", "x"}, {"history"}, {"show", "x"}, {"demo-agent"}, {"help"}, {"--help"}, {"-h"},
		{"completion", "bash"}, {"__complete", "sh"}, {"__completeNoDesc", "sh"}} {
		if !IsCommand(args) {
			t.Errorf("%v is not taken for a command", args)
		}
	}
	for _, args := range [][]string{nil, {"-devserver", "localhost:34115"}, {"-assetdir", "x"}, {"runn"}, {""}} {
		if IsCommand(args) {
			t.Errorf("%v is taken for a command: it must start the window", args)
		}
	}
}
