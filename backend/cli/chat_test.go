package cli

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

// TestChatReadsLinesWhenStdinIsNotATerminal: piped into chat, each line is a turn, and the
// line after a permission question is its answer; nothing is coloured or line-edited, the
// prompts are printed as the transcript's "> " lines, and the session is saved with both turns.
func TestChatReadsLinesWhenStdinIsNotATerminal(t *testing.T) {
	isolatedConfig(t)
	dir := t.TempDir()
	agent := scriptAgent(t, "["+handshake+`
	{"expect":"session/prompt"},`+askEditA("r1")+`
	{"update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"first answer"}}},
	{"reply":{"stopReason":"end_turn"}},
	{"expect":"session/prompt"},
	{"update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"second answer"}}},
	{"reply":{"stopReason":"refusal"}}]`)
	db := filepath.Join(dir, "h.db")
	var out, errOut bytes.Buffer
	code := execute(strings.NewReader("hello\n2\n\n/help\nsecond\n"), &out, &errOut, "chat", "--db", db,
		"--agent-cmd", agent, "--cwd", t.TempDir())
	if code != ExitRefused { // the last turn's code, as run's
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out.String(), errOut.String())
	}
	text := out.String()
	for _, want := range []string{"> hello\n", `Allow "Edit a.go"? [1] Allow  [2] Reject  2` + "\n", "[permission] Edit a.go: chose r1",
		"first answer", "stop reason: end_turn\n", "chat's commands:\n  /help", "has announced no commands",
		"> second\n", "second answer", "stop reason: refusal\n", "; continue it with: agentdesk chat --continue "} {
		if !strings.Contains(text, want) {
			t.Errorf("stdout lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "\x1b") || strings.Contains(text, "Chatting with") {
		t.Errorf("escape codes or the terminal's greeting without a terminal:\n%q", text)
	}
	id, turns := savedTurns(t, db)
	if !strings.Contains(text, "agentdesk chat --continue "+id+"\n") {
		t.Errorf("the way to continue does not name session %s", id)
	}
	if len(turns) != 2 || turns[0].Prompt != "hello" || turns[1].Prompt != "second" || turns[1].StopReason != "refusal" {
		t.Fatalf("saved turns %+v", turns)
	}
}

// TestChatContinuesASavedSession: --continue PREFIX recaps the saved session and adds the new
// turns to it, under its id; --continue beside --agent is a usage error, as in run.
func TestChatContinuesASavedSession(t *testing.T) {
	isolatedConfig(t)
	t.Setenv("AGENTDESK_DEMO_PACE", "0s")
	db := filepath.Join(t.TempDir(), "h.db")
	var out, errOut bytes.Buffer
	if code := execute(strings.NewReader("first\n"), &out, &errOut, "chat", "--db", db, "--permissions", "allow", "--cwd", t.TempDir()); code != ExitOK {
		t.Fatalf("first chat: exit %d\n%s", code, errOut.String())
	}
	id, _ := savedTurns(t, db)
	out.Reset()
	errOut.Reset()
	code := execute(strings.NewReader("second\n"), &out, &errOut, "chat", "--db", db, "--permissions", "allow", "--continue", id[:8])
	if code != ExitOK {
		t.Fatalf("continue: exit %d\n%s", code, errOut.String())
	}
	if !strings.Contains(out.String(), `: 1 turn so far, the last: "first"`) || !strings.Contains(out.String(), "> second\n") ||
		strings.Contains(out.String(), "> first") {
		t.Fatalf("continue's transcript:\n%s", out.String())
	}
	again, turns := savedTurns(t, db)
	if again != id || len(turns) != 2 || turns[0].Prompt != "first" || turns[1].Prompt != "second" {
		t.Fatalf("after continue: session %s, turns %+v", again, turns)
	}
	errOut.Reset()
	if code := execute(strings.NewReader(""), &out, &errOut, "chat", "--db", db, "--continue", id, "--agent", "demo"); code != ExitUsage {
		t.Fatalf("--continue with --agent: exit %d\n%s", code, errOut.String())
	}
}

// TestCompleteSlash: Tab offers the commands that start with what was typed after the slash,
// once each and sorted, and nothing once the line is more than a command.
func TestCompleteSlash(t *testing.T) {
	cmds := []string{"help", "quit", "review", "reset", "help"}
	for _, c := range []struct {
		line string
		want string
	}{{"/re", "/reset /review"}, {"/he", "/help"}, {"/", "/help /quit /reset /review"}, {"re", ""}, {"/review x", ""}} {
		if got := strings.Join(completeSlash(c.line, cmds), " "); got != c.want {
			t.Errorf("completeSlash(%q) = %q, want %q", c.line, got, c.want)
		}
	}
}

// TestChatExitCodesAsRun: an agent that cannot be started exits 6 and a wrong flag 2, as in
// run, and neither offers a session to continue.
func TestChatExitCodesAsRun(t *testing.T) {
	isolatedConfig(t)
	db := filepath.Join(t.TempDir(), "h.db")
	var out, errOut bytes.Buffer
	if code := execute(strings.NewReader("hello\n"), &out, &errOut, "chat", "--db", db, "--agent", "nope"); code != ExitNoStart ||
		!strings.Contains(errOut.String(), `agentdesk chat: no agent "nope"`) || strings.Contains(out.String(), "--continue") {
		t.Fatalf("unknown agent: exit %d\nstdout:\n%s\nstderr:\n%s", code, out.String(), errOut.String())
	}
	errOut.Reset()
	if code := execute(strings.NewReader(""), &out, &errOut, "chat", "--db", db, "--permissions", "maybe"); code != ExitUsage ||
		!strings.Contains(errOut.String(), "--permissions") {
		t.Fatalf("bad flag: exit %d\n%s", code, errOut.String())
	}
}
