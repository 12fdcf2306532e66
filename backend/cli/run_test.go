package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCLIRunAndHistory(t *testing.T) {
	t.Setenv("AGENTDESK_DEMO_PACE", "0s")
	db := t.TempDir() + "/cli.db"
	var out, errOut bytes.Buffer
	code := runCLI([]string{"--db", db, "--permissions", "allow", "--cwd", t.TempDir(), "hello", "cli"}, strings.NewReader(""), &out, &errOut)
	if code != 0 {
		t.Fatalf("exit %d, stderr %s", code, errOut.String())
	}
	text := out.String()
	// The receipt comes just before the stop reason: the Demo agent's tokens, its one command,
	// and no file changed (it never writes).
	for _, want := range []string{"> hello cli", "[thought]", "[tool] Edit NOTES.md (edit): completed", "[permission] Edit NOTES.md: chose allow", "Done.",
		"\n[receipt] ", "tokens (1202 in, ", "1 command; 0 files changed\nstop reason: end_turn\n"} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	if !strings.HasSuffix(text, "stop reason: end_turn\n") {
		t.Fatalf("output does not end with the stop reason:\n%s", text)
	}
	out.Reset()
	if code := historyCLI([]string{"--db", db}, nil, &out, &errOut); code != 0 || !strings.Contains(out.String(), "hello cli") {
		t.Fatalf("history exit %d: %s %s", code, out.String(), errOut.String())
	}
	prefix := strings.Fields(out.String())[0][:8]
	out.Reset()
	if code := showCLI([]string{"--db", db, prefix}, nil, &out, &errOut); code != 0 || !strings.HasPrefix(out.String(), "# hello cli") {
		t.Fatalf("show exit %d: %s %s", code, out.String(), errOut.String())
	}
	errOut.Reset()
	if code := showCLI([]string{"--db", db, "zzz"}, nil, &out, &errOut); code != 1 || !strings.Contains(errOut.String(), `no saved session "zzz"`) {
		t.Fatalf("show of an unknown id: exit %d: %s", code, errOut.String())
	}
}

func TestCLIRejectsBadInput(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := runCLI([]string{"--permissions", "maybe", "x"}, nil, &out, &errOut); code != 2 || !strings.Contains(errOut.String(), "--permissions") {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	errOut.Reset()
	if code := runCLI([]string{"--db", t.TempDir() + "/x.db", "--hard-stop-after", "0s", "x"}, nil, &out, &errOut); code != 2 || !strings.Contains(errOut.String(), "--hard-stop-after") {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	errOut.Reset()
	if code := runCLI([]string{"--db", t.TempDir() + "/x.db", "--agent", "nope", "x"}, nil, &out, &errOut); code != ExitNoStart || !strings.Contains(errOut.String(), `no agent "nope"`) {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
}

func TestCLIRunWithAgentCommand(t *testing.T) {
	var out, errOut bytes.Buffer
	self, _ := os.Executable()
	line := "'" + self + "' demo-agent --pace 0s"
	code := runCLI([]string{"--db", t.TempDir() + "/c.db", "--agent-cmd", line, "--permissions", "reject", "--cwd", t.TempDir(), "hi"},
		strings.NewReader(""), &out, &errOut)
	if code != 0 || !strings.Contains(out.String(), "you **rejected** it") || !strings.HasSuffix(out.String(), "stop reason: end_turn\n") {
		t.Fatalf("exit %d\n%s\n%s", code, out.String(), errOut.String())
	}
}

func TestCLIRunReportsAnAgentThatDies(t *testing.T) {
	dir := t.TempDir()
	agent := scriptAgent(t, "["+handshake+`
		{"expect":"session/prompt"},
		{"update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"working on it"}}},
		{"exit":3,"stderr":"panic: out of tokens"}]`)
	var out, errOut bytes.Buffer
	code := runCLI([]string{"--db", dir + "/c.db", "--agent-cmd", agent, "--cwd", dir, "hi"},
		strings.NewReader(""), &out, &errOut)
	if code != 1 || !strings.Contains(out.String(), "working on it") || !strings.HasSuffix(out.String(), "stop reason: error\n") {
		t.Fatalf("exit %d, stdout:\n%s", code, out.String())
	}
	for _, want := range []string{"exit status 3", "panic: out of tokens"} {
		if !strings.Contains(errOut.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut.String())
		}
	}
}

func TestCLICancelAfterAndHardStopOfAnAgentThatIgnoresIt(t *testing.T) {
	dir := t.TempDir()
	// Starts, takes the prompt, and then neither answers nor honours session/cancel.
	agent := scriptAgent(t, "["+handshake+`
		{"expect":"session/prompt"}, {"expect":"session/cancel"}]`)
	var out, errOut bytes.Buffer
	code := runCLI([]string{"--db", dir + "/c.db", "--agent-cmd", agent, "--cwd", dir,
		"--cancel-after", "1ms", "--hard-stop-after", "50ms", "hi"}, strings.NewReader(""), &out, &errOut)
	if code != 1 || !strings.HasSuffix(out.String(), "stop reason: interrupted\n") ||
		!strings.Contains(errOut.String(), "the agent ignored Stop for 50ms and was stopped hard") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out.String(), errOut.String())
	}
}

// The unstable kinds real agents send print as a line each: a compaction once per status, not
// per summary chunk; a notice with its severity. show keeps them.
func TestCLIPrintsCompactionAndNotice(t *testing.T) {
	t.Setenv("AGENTDESK_DEMO_PACE", "0s")
	db := t.TempDir() + "/cli.db"
	var out, errOut bytes.Buffer
	if code := runCLI([]string{"--db", db, "--cwd", t.TempDir(), "/compact"}, strings.NewReader(""), &out, &errOut); code != 0 {
		t.Fatalf("exit %d, stderr %s", code, errOut.String())
	}
	text := out.String()
	for _, want := range []string{"── context compaction: in_progress ──\n── context compaction: completed ──\n", "[notice: info] Context compacted\nEarlier turns are summarised"} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q:\n%s", want, text)
		}
	}
	out.Reset()
	if code := historyCLI([]string{"--db", db}, nil, &out, &errOut); code != 0 {
		t.Fatalf("history exit %d: %s", code, errOut.String())
	}
	prefix := strings.Fields(out.String())[0][:8]
	out.Reset()
	if code := showCLI([]string{"--db", db, prefix}, nil, &out, &errOut); code != 0 {
		t.Fatalf("show exit %d: %s", code, errOut.String())
	}
	for _, want := range []string{"## Context compacted (completed)", "> Kept: the folder", "## Notice (info): Context compacted"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("show lacks %q:\n%s", want, out.String())
		}
	}
}

// run --verbose prints the engine's log on stderr (here: a notification the agent sent that
// agentdesk ignores), named for the command; without it the log is dropped, as before.
func TestRunVerbosePrintsTheEngineLog(t *testing.T) {
	isolatedConfig(t)
	dir := t.TempDir()
	agent := scriptAgent(t, "["+handshake+`
	{"expect":"session/prompt"},
	{"send":{"jsonrpc":"2.0","method":"x/unheard-of","params":{}}},
	{"reply":{"stopReason":"end_turn"}}]`)
	for _, verbose := range []bool{false, true} {
		args := []string{"--db", filepath.Join(dir, "v.db"), "--agent-cmd", agent, "--cwd", dir, "go"}
		if verbose {
			args = append([]string{"--verbose"}, args...)
		}
		var out, errOut bytes.Buffer
		if code := runCLI(args, nil, &out, &errOut); code != 0 {
			t.Fatalf("--verbose=%v: exit %d: %s", verbose, code, errOut.String())
		}
		logged := strings.Contains(errOut.String(), `ignored notification "x/unheard-of"`)
		if logged != verbose || (verbose && !strings.Contains(errOut.String(), "agentdesk run: ")) {
			t.Fatalf("--verbose=%v: the engine's log on stderr is %v:\n%s", verbose, logged, errOut.String())
		}
	}
}
