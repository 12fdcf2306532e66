package cli

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// liveChat is `agentdesk chat --continue` of a saved session in a process of its own (this
// test binary, which TestMain turns into chat), with its prompts on a pipe.
type liveChat struct {
	cmd   *exec.Cmd
	in    io.WriteCloser
	lines *bufio.Scanner
}

// startChat continues session id of history db in a chat process; it is killed at the end of
// the test if it still runs.
func startChat(t *testing.T, db, id string) *liveChat {
	t.Helper()
	self, _ := os.Executable()
	cmd := exec.Command(self, "chat", "--db", db, "--permissions", "allow", "--continue", id)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return &liveChat{cmd: cmd, in: in, lines: bufio.NewScanner(out)}
}

// turn sends prompt and reads the chat's output until the turn's stop reason.
func (c *liveChat) turn(t *testing.T, prompt string) {
	t.Helper()
	if _, err := fmt.Fprintln(c.in, prompt); err != nil {
		t.Fatal(err)
	}
	var seen []string
	for c.lines.Scan() {
		seen = append(seen, c.lines.Text())
		if strings.HasPrefix(c.lines.Text(), "stop reason: ") {
			return
		}
	}
	t.Fatalf("the chat ended before turn %q did:\n%s", prompt, strings.Join(seen, "\n"))
}

// TestContinueOfASessionLiveInAnotherProcessIsRefused: while `chat --continue` has a session
// live in its process, `run --continue` of it in another is refused, in words that name the
// chat, its pid, since when, and say what to do; nothing is lost (the chat's turns are all
// saved, the refused prompt is not). Once the chat ends, the session can be continued; once a
// chat that has it live is killed (SIGKILL: no release), the next continue takes it over.
func TestContinueOfASessionLiveInAnotherProcessIsRefused(t *testing.T) {
	db := savedDemoSession(t)
	id, _ := savedTurns(t, db)
	cont := func(prompt string) (int, string) {
		var out, errOut bytes.Buffer
		code := runCLI([]string{"--db", db, "--permissions", "allow", "--continue", id, prompt}, strings.NewReader(""), &out, &errOut)
		return code, errOut.String()
	}

	chat := startChat(t, db, id)
	chat.turn(t, "second")
	code, said := cont("refused")
	want := fmt.Sprintf("agentdesk run: session %s is live in agentdesk chat (pid %d) since ", id, chat.cmd.Process.Pid)
	if code != ExitFailed || !strings.Contains(said, want) || !strings.Contains(said, "close it there first") ||
		!strings.Contains(said, "fork it") {
		t.Fatalf("continue of a session live in a chat: exit %d\n%s\nwant %q", code, said, want)
	}
	chat.turn(t, "third") // the chat goes on as if nothing happened
	chat.in.Close()
	if err := chat.cmd.Wait(); err != nil {
		t.Fatalf("the chat ended with %v", err)
	}
	if code, said := cont("fourth"); code != ExitOK {
		t.Fatalf("continue after the chat ended: exit %d\n%s", code, said)
	}

	chat = startChat(t, db, id)
	chat.turn(t, "fifth")
	if err := chat.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	chat.cmd.Wait()
	if code, said := cont("sixth"); code != ExitOK {
		t.Fatalf("continue after the chat was killed: exit %d\n%s", code, said)
	}
	_, turns := savedTurns(t, db)
	var prompts []string
	for i, turn := range turns {
		prompts = append(prompts, turn.Prompt)
		if turn.Turn != i+1 || turn.EndedAt.IsZero() {
			t.Errorf("turn %d: %+v", i+1, turn)
		}
	}
	if got := strings.Join(prompts, ","); got != "first,second,third,fourth,fifth,sixth" {
		t.Fatalf("saved prompts %s", got)
	}
}
