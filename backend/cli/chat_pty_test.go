package cli

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/creack/pty"

	"agentdesk/backend/store"
)

// ptyChat is `agentdesk chat` running in a child process (this test binary, see TestMain) on a
// pseudo-terminal that is its controlling terminal, as a person's is: the line editor reads
// keys raw, and a Ctrl-C typed while a turn runs reaches chat as the kernel's SIGINT.
type ptyChat struct {
	t      *testing.T
	tty    *os.File // the master side: what is written is typed, what is read is the screen
	cmd    *exec.Cmd
	chunks chan []byte // what the screen got, as read; closed when chat has gone
	done   chan struct{}
	seen   []byte // everything read so far
	from   int    // expect looks from here on
}

// ptyWait bounds each wait for the screen: a failure, not a pace (the test never sleeps).
const ptyWait = 60 * time.Second

func startPTYChat(t *testing.T, env []string, args ...string) *ptyChat {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self, append([]string{"chat"}, args...)...)
	cmd.Env = append(os.Environ(), append([]string{"TERM=xterm"}, env...)...)
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 50, Cols: 200})
	if err != nil {
		t.Fatal(err)
	}
	c := &ptyChat{t: t, tty: tty, cmd: cmd, chunks: make(chan []byte, 16), done: make(chan struct{})}
	go func() {
		defer close(c.chunks)
		buf := make([]byte, 4096)
		for {
			n, err := tty.Read(buf)
			if n > 0 {
				select {
				case c.chunks <- append([]byte(nil), buf[:n]...):
				case <-c.done:
					return
				}
			}
			if err != nil { // EIO once chat and its agent have closed the terminal
				return
			}
		}
	}()
	t.Cleanup(func() {
		close(c.done)
		if c.cmd.ProcessState == nil {
			_ = c.cmd.Process.Kill()
			_ = c.cmd.Wait()
		}
		tty.Close()
	})
	return c
}

// expect waits until the screen shows s after what the last expect matched.
func (c *ptyChat) expect(s string) {
	c.t.Helper()
	deadline := time.NewTimer(ptyWait)
	defer deadline.Stop()
	for {
		if i := bytes.Index(c.seen[c.from:], []byte(s)); i >= 0 {
			c.from += i + len(s)
			return
		}
		select {
		case b, ok := <-c.chunks:
			if !ok {
				c.t.Fatalf("chat ended before showing %q; the screen:\n%q", s, c.seen)
			}
			c.seen = append(c.seen, b...)
		case <-deadline.C:
			c.t.Fatalf("no %q within %s; the screen:\n%q", s, ptyWait, c.seen)
		}
	}
}

// typeKeys types s on the terminal.
func (c *ptyChat) typeKeys(s string) {
	c.t.Helper()
	if _, err := c.tty.WriteString(s); err != nil {
		c.t.Fatal(err)
	}
}

// exitsOK reads the screen to its end and fails the test unless chat exited with ExitOK.
func (c *ptyChat) exitsOK() {
	c.t.Helper()
	if code := c.wait(); code != ExitOK {
		c.t.Fatalf("exit %d; the screen:\n%q", code, c.seen)
	}
}

// wait reads the screen to its end and returns chat's exit code.
func (c *ptyChat) wait() int {
	c.t.Helper()
	deadline := time.NewTimer(ptyWait)
	defer deadline.Stop()
	for open := true; open; {
		select {
		case b, ok := <-c.chunks:
			c.seen, open = append(c.seen, b...), ok
		case <-deadline.C:
			c.t.Fatalf("chat did not end within %s; the screen:\n%q", ptyWait, c.seen)
		}
	}
	err := c.cmd.Wait()
	if exit, ok := err.(*exec.ExitError); ok {
		return exit.ExitCode()
	} else if err != nil {
		c.t.Fatal(err)
	}
	return 0
}

// chatScript writes an acptest script: the agent announces /review, asks to edit a.go in the
// first turn (wanting the answer a1), keeps the second running until it is cancelled, and
// answers the third.
func chatScript(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "chat.json")
	if err := os.WriteFile(path, []byte("["+handshake+`
	{"update":{"sessionUpdate":"available_commands_update","availableCommands":[{"name":"review","description":"Review the folder"}]}},
	{"expect":"session/prompt"},`+askEditA("a1")+`
	{"update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"first answer"}}},
	{"reply":{"stopReason":"end_turn"}},
	{"expect":"session/prompt"},
	{"update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"working on it"}}},
	{"expect":"session/cancel"},
	{"reply":{"stopReason":"cancelled"}},
	{"expect":"session/prompt"},
	{"update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"third answer"}}},
	{"reply":{"stopReason":"end_turn"}}]`), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// savedTurns reads the one saved session of db: its id and its turns.
func savedTurns(t *testing.T, db string) (string, []store.Turn) {
	t.Helper()
	ctx := context.Background()
	st := openHistory(t, db)
	rows, err := st.ListSessions(ctx, "", 0)
	if err != nil || len(rows) != 1 {
		t.Fatalf("history: %+v, %v", rows, err)
	}
	_, turns, _, err := st.Session(ctx, rows[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	return rows[0].ID, turns
}

// sgr matches a colour or style escape (not the line editor's cursor moves).
var sgr = regexp.MustCompile(`\x1b\[[0-9;]*m`)

// TestChatOnAPseudoTerminal: a chat through a real terminal: a turn whose permission is answered
// inline, a turn stopped by Ctrl-C (the agent stays up), a third turn that Tab completed as the
// agent's /review, then Ctrl-D leaves, saying how to continue; the session is saved with the
// three turns.
func TestChatOnAPseudoTerminal(t *testing.T) {
	isolatedConfig(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "h.db")
	self, _ := os.Executable()
	// NO_COLOR emptied: scripts/test.sh sets it when its own output is not a terminal (CI).
	c := startPTYChat(t, []string{"NO_COLOR="}, "--db", db, "--agent-cmd", "'"+self+"' demo-agent --script "+chatScript(t, dir), "--cwd", t.TempDir())

	c.expect("Chatting with ")
	c.expect("\r\n> ")
	c.typeKeys("first turn\r")
	c.expect(`Allow "Edit a.go"? [1] Allow  [2] Reject`)
	c.typeKeys("1\r")
	c.expect("[permission] Edit a.go: chose a1")
	c.expect("first answer")
	c.expect("stop reason: end_turn")
	c.expect("\r\n> ")

	c.typeKeys("second turn\r")
	c.expect("working on it")
	c.typeKeys("\x03")
	c.expect("Stopping the turn (Ctrl-C again leaves)")
	c.expect("stop reason: cancelled")
	c.expect("Stopped.")
	c.expect("\r\n> ")

	c.typeKeys("/rev\t")
	c.expect("/review")
	c.typeKeys("\r")
	c.expect("third answer")
	c.expect("stop reason: end_turn")
	c.expect("\r\n> ")
	c.typeKeys("\x04")
	c.expect("; continue it with: agentdesk chat --continue ")
	c.exitsOK()
	if !sgr.Match(c.seen) {
		t.Errorf("no colour on a terminal without NO_COLOR:\n%q", c.seen)
	}
	id, turns := savedTurns(t, db)
	if !bytes.Contains(c.seen, []byte("agentdesk chat --continue "+id)) {
		t.Errorf("the way to continue does not name session %s:\n%q", id, c.seen)
	}
	want := []struct{ prompt, stop string }{{"first turn", "end_turn"}, {"second turn", "cancelled"}, {"/review", "end_turn"}}
	if len(turns) != len(want) {
		t.Fatalf("saved turns %+v", turns)
	}
	for i, w := range want {
		if turns[i].Prompt != w.prompt || turns[i].StopReason != w.stop {
			t.Errorf("turn %d saved as %q (%s), want %q (%s)", i+1, turns[i].Prompt, turns[i].StopReason, w.prompt, w.stop)
		}
	}
}

// TestChatSecondCtrlCLeaves: a second Ctrl-C while the turn is stopping leaves at once; the
// session is saved, and with NO_COLOR nothing is coloured.
func TestChatSecondCtrlCLeaves(t *testing.T) {
	isolatedConfig(t)
	dir := t.TempDir()
	// Takes the prompt, streams a line, then neither answers nor honours session/cancel.
	agent := scriptAgent(t, "["+handshake+`
	{"expect":"session/prompt"},
	{"update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"working on it"}}},
	{"expect":"session/cancel"}]`)
	db := filepath.Join(dir, "h.db")
	c := startPTYChat(t, []string{"NO_COLOR=1"}, "--db", db, "--agent-cmd", agent, "--cwd", t.TempDir())
	c.expect("\r\n> ")
	c.typeKeys("go\r")
	c.expect("working on it")
	c.typeKeys("\x03")
	c.expect("Stopping the turn")
	c.typeKeys("\x03")
	c.expect("Leaving")
	c.expect("agentdesk chat --continue ")
	c.exitsOK()
	if m := sgr.Find(c.seen); m != nil {
		t.Errorf("colour %q despite NO_COLOR:\n%q", m, c.seen)
	}
	if _, turns := savedTurns(t, db); len(turns) != 1 || turns[0].Prompt != "go" {
		t.Fatalf("saved turns %+v", turns)
	}
}

// TestChatCtrlCAtAQuestionStopsTheTurn: Ctrl-C typed at a permission question (read by the line
// editor as a key, not a signal) stops the turn, which cancels the question; the next Ctrl-C, at
// the prompt, leaves.
func TestChatCtrlCAtAQuestionStopsTheTurn(t *testing.T) {
	isolatedConfig(t)
	dir := t.TempDir()
	agent := scriptAgent(t, "["+handshake+`
	{"expect":"session/prompt"},`+askEditA("cancelled")+`
	{"reply":{"stopReason":"cancelled"}}]`)
	db := filepath.Join(dir, "h.db")
	c := startPTYChat(t, nil, "--db", db, "--agent-cmd", agent, "--cwd", t.TempDir())
	c.expect("\r\n> ")
	c.typeKeys("go\r")
	c.expect(`Allow "Edit a.go"? [1] Allow  [2] Reject`)
	c.typeKeys("\x03")
	c.expect("Stopping the turn")
	c.expect("[permission] Edit a.go: cancelled")
	c.expect("stop reason: cancelled")
	c.expect("\r\n> ")
	c.typeKeys("\x03")
	c.expect("agentdesk chat --continue ")
	c.exitsOK()
	if _, turns := savedTurns(t, db); len(turns) != 1 || turns[0].StopReason != "cancelled" {
		t.Fatalf("saved turns %+v", turns)
	}
}
