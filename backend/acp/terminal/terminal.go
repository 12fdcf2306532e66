package terminal

import (
	"bytes"
	"crypto/rand"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"agentdesk/backend/acp/schema"
	"agentdesk/backend/supervise"
)

// MaxOutput is how much output a terminal keeps when the agent sets no outputByteLimit,
// and the most it keeps whatever the agent asks: a command that never stops printing must not
// exhaust memory.
const MaxOutput = 4 << 20

// DisplayBytes bounds the output a tool card shows, live and in the history: the tail
// of the output with its colours (at most the terminal's own limit), cut on a character
// boundary and never inside a colour sequence.
const DisplayBytes = 64 << 10

// MaxInput bounds one piece of input the person sends to a running terminal: a line of
// the PTY's line discipline holds at most 4095 characters.
const MaxInput = 4 << 10

// terminalInputWait is how long sending input waits for a command that does not read it.
const terminalInputWait = 2 * time.Second

// terminalRefresh is the most often a running terminal's tool card is refreshed.
const terminalRefresh = 100 * time.Millisecond

// terminalDrain is how long, once its command has exited, a terminal waits for the end of the
// output before it reports the exit: processes the command left in the background may hold the
// pipe open for as long as they live.
const terminalDrain = 250 * time.Millisecond

// Terminal is one command run for the agent on a PTY (terminal_pty_linux.go), in its own
// session and process group, with its stdout and stderr interleaved on the terminal. The output
// is kept twice, as it arrives (escFilter): its text for the agent, and its text with colours
// for the tool card, the tail of each within the output limit. Its view is published, in order and at
// most every terminalRefresh while output flows; the end of the output and the exit are
// published before anyone is told of them (wait_for_exit, terminal/output), so a tool card
// never lags behind what the agent knows.
type Terminal struct {
	id       string
	cmd      *exec.Cmd
	tree     *supervise.Tree // kill ends it all: the command and everything it started
	out      *os.File        // the PTY's master: output is read from it, input written to it
	onChange func(View)

	// held is a slave of the PTY that agentdesk keeps open until the command's output has all
	// been read. Linux may answer a read of the master with EIO, the end of the output, when
	// the last slave closes while some of what was written to it is still on its way, and the
	// end of a command's output would be lost (1 run in 500 on a busy machine). Held open, the
	// slave never closes under the reader: once the command has exited, wait writes mark
	// through it, and as the terminal keeps the order of what is written, seeing mark come out
	// of the master means everything the command wrote before it has been read. mark is an OSC
	// sequence (which escFilter drops) with a random nonce.
	held     *os.File
	holdOnce sync.Once
	mark     []byte
	marked   chan struct{} // closed when read has seen mark and kept what came before it

	mu    sync.Mutex
	esc   escFilter // read's alone
	buf   Buffer    // the text, for terminal/output
	disp  Buffer    // the text with colours, for the card
	eof   bool
	exit  *schema.TerminalExitStatus // set once, before exited is closed
	dirty bool                       // changed since the last view was published
	timer *time.Timer                // a scheduled refresh, or nil

	inMu    sync.Mutex    // sends input one piece at a time (each with its own deadline)
	pubMu   sync.Mutex    // publishes one at a time, so a stale view never follows a newer one
	exited  chan struct{} // closed when exit is set
	drained chan struct{} // closed when the output has ended
}

// startTerminal starts cmd with the output limit; onChange receives each new view, on the
// terminal's own goroutines and never with a lock of the terminal held. done is called when both
// of them have ended.
func startTerminal(id string, cmd supervise.Command, limit int, onChange func(View), done func()) (*Terminal, error) {
	c := exec.Command(cmd.Path, cmd.Args...)
	c.Dir, c.Env = cmd.Dir, cmd.Env
	master, held, tr, err := startOnPTY(c) // an *os.File each: Wait does not wait for the output to be read
	if err != nil {
		return nil, err
	}
	t := &Terminal{id: id, cmd: c, tree: tr, out: master, held: held, mark: fmt.Appendf(nil, "\x1b]7777;agentdesk-end-%s\a", rand.Text()),
		onChange: onChange, buf: NewBuffer(limit), disp: NewBuffer(min(limit, DisplayBytes)),
		exited: make(chan struct{}), drained: make(chan struct{}), marked: make(chan struct{}), dirty: true}
	t.publish() // the card offers input before the command prints anything (a prompt may not end in a newline)
	var both sync.WaitGroup
	both.Add(2)
	go func() { defer both.Done(); t.read() }()
	go func() { defer both.Done(); t.wait() }()
	go func() { both.Wait(); done() }()
	return t, nil
}

// read keeps the output until it ends: every process holding the PTY's slave has exited (the
// master then reads EIO, on Linux) or stop closed the master.
func (t *Terminal) read() {
	p := make([]byte, 32<<10)
	var text, disp, seen []byte // seen: the end of the output so far, to find mark in
	found := false
	for {
		n, err := t.out.Read(p)
		if n > 0 {
			text, disp = text[:0], disp[:0]
			t.esc.write(p[:n], &text, &disp)
			t.mu.Lock()
			t.buf.Write(text)
			t.disp.Write(disp)
			t.dirty = true
			if t.timer == nil {
				t.timer = time.AfterFunc(terminalRefresh, t.publish)
			}
			t.mu.Unlock()
		}
		if n > 0 && !found { // after the buffers have what came before mark
			seen = append(seen, p[:n]...)
			if found = bytes.Contains(seen, t.mark); found {
				close(t.marked)
				t.letGo() // the output now ends when the last background process closes the slave
			}
			seen = seen[max(0, len(seen)-len(t.mark)):]
		}
		if err != nil {
			break
		}
	}
	t.out.Close()
	t.letGo()
	t.mu.Lock()
	t.eof, t.dirty = true, true
	t.mu.Unlock()
	t.publish()
	close(t.drained)
}

// wait reports the exit once the output written before it has been read (or terminalDrain has
// passed).
func (t *Terminal) wait() {
	_ = t.cmd.Wait()                  // the status is in ProcessState
	_, _ = t.tree.Left(terminalDrain) // what the command left is killed with it
	st := exitStatus(t.cmd.ProcessState)
	drain := time.NewTimer(terminalDrain)
	_ = t.held.SetWriteDeadline(time.Now().Add(terminalDrain))
	if _, err := t.held.Write(t.mark); err == nil {
		select {
		case <-t.marked:
		case <-t.drained:
		case <-drain.C:
		}
	} else {
		select {
		case <-t.drained:
		case <-drain.C:
		}
	}
	drain.Stop()
	t.letGo()
	t.mu.Lock()
	t.exit, t.dirty = &st, true
	t.mu.Unlock()
	t.publish()
	close(t.exited)
}

// letGo closes agentdesk's slave of the PTY (see held), once.
func (t *Terminal) letGo() {
	t.holdOnce.Do(func() { t.held.Close() })
}

// publish sends the current view, unless it was sent already, and cancels a scheduled refresh.
func (t *Terminal) publish() {
	t.pubMu.Lock()
	defer t.pubMu.Unlock()
	t.mu.Lock()
	if t.timer != nil {
		t.timer.Stop()
		t.timer = nil
	}
	if !t.dirty { // a refresh that fired while a newer view was being published
		t.mu.Unlock()
		return
	}
	t.dirty = false
	// The card shows the text with its colours; every other escape was dropped as it arrived.
	v := View{Output: overwrite(string(t.disp.Bytes(t.eof))), Truncated: t.disp.Truncated(),
		ExitStatus: t.exit, Input: t.exit == nil}
	t.mu.Unlock()
	t.onChange(v)
}

// output answers terminal/output: the text of the output without escape sequences, each line
// as the command left it (see overwrite).
func (t *Terminal) output() schema.TerminalOutputResult {
	t.mu.Lock()
	defer t.mu.Unlock()
	return schema.TerminalOutputResult{Output: overwrite(string(t.buf.Bytes(t.eof))), Truncated: t.buf.Truncated(), ExitStatus: t.exit}
}

// ErrEnded: input for a terminal whose command has exited.
var ErrEnded = errors.New("the command in this terminal has ended")

// input writes p to the terminal as if typed: the line discipline echoes it into the output
// and hands it to the command when it reads (a line at a time, unless the command asked for
// raw input); a Ctrl-C (0x03) becomes SIGINT for the foreground process group. A command that
// does not read blocks the write once the terminal's input queue is full: it then fails after
// terminalInputWait.
func (t *Terminal) Input(p []byte) error {
	t.inMu.Lock()
	defer t.inMu.Unlock()
	select {
	case <-t.exited:
		return ErrEnded
	default:
	}
	if err := t.out.SetWriteDeadline(time.Now().Add(terminalInputWait)); err != nil {
		return ErrEnded // the master was closed: the output has ended
	}
	_, err := t.out.Write(p)
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded):
		return errors.New("the command is not reading its input")
	case errors.Is(err, os.ErrClosed), errors.Is(err, syscall.EIO):
		return ErrEnded
	}
	return err
}

// kill sends SIGKILL to every process of the command's tree (see supervise.Tree.Kill) and reports whether
// it did: it does not once the command has exited and its output has ended, because the tree is
// gone then (the supervisor kills what the command leaves when it exits) and, without a
// supervisor, the group's id may already belong to someone else.
func (t *Terminal) kill() bool {
	select {
	case <-t.exited:
		select {
		case <-t.drained:
			return false
		default:
		}
	default:
	}
	t.tree.Kill()
	return true
}

// stop kills the tree and returns when the command has exited, the output has ended and no
// process of the group runs any more (within terminalDrain: signals land asynchronously). Output
// held open by a process that could not be killed is cut off after terminalDrain.
func (t *Terminal) stop() {
	killed := t.kill()
	<-t.exited
	select {
	case <-t.drained:
	case <-time.After(terminalDrain):
		t.out.Close() // ends the pending Read
		<-t.drained
	}
	if killed {
		supervise.WaitGroupGone(t.cmd.Process.Pid, terminalDrain)
	}
}

// exitStatus is how a process ended, in ACP's terms.
func exitStatus(ps *os.ProcessState) schema.TerminalExitStatus {
	if ps == nil {
		code := -1
		return schema.TerminalExitStatus{ExitCode: &code}
	}
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		name := signalName(ws.Signal())
		return schema.TerminalExitStatus{Signal: &name}
	}
	code := ps.ExitCode()
	return schema.TerminalExitStatus{ExitCode: &code}
}

// signalName is the conventional name of sig ("SIGTERM"), or "signal N" for a rare one.
func signalName(sig syscall.Signal) string {
	if name, ok := signalNames[sig]; ok {
		return name
	}
	return fmt.Sprintf("signal %d", int(sig))
}
