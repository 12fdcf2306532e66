package compare

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"agentdesk/backend/acp/terminal"
	"agentdesk/backend/store"
	"agentdesk/backend/supervise"
)

// MaxCheckOutput is how much of a check's output is kept: its end, where a test run says how it
// went.
const MaxCheckOutput = 64 << 10

// MaxCheckCommand bounds a check command's length.
const MaxCheckCommand = 4 << 10

// RunCheck runs command with sh in dir, with env as its whole environment, and returns how it
// went (Turn unset). It blocks until the command and everything it started have ended, or ctx
// ends (the tree is then killed, and ExitCode is -1).
func RunCheck(ctx context.Context, dir, command string, env []string) store.Check {
	c := store.Check{Command: command, ExitCode: -1}
	began := time.Now()
	defer func() { c.DurationMs = time.Since(began).Milliseconds() }()
	// stdin from /dev/null (nobody answers a check), and its errors in order with its output.
	p, err := supervise.Start(supervise.Command{Path: "/bin/sh", Args: []string{"-c", "exec </dev/null 2>&1\n" + command}, Env: env, Dir: dir})
	if err != nil {
		c.Error = fmt.Sprintf("the check did not start: %v", err)
		return c
	}
	out := &tail{max: MaxCheckOutput}
	read := make(chan struct{})
	go func() {
		_, _ = io.Copy(out, p) // until the tree's output is closed
		close(read)
	}()
	select {
	case <-p.Exited():
	case <-ctx.Done():
		c.Error = fmt.Sprintf("the check was stopped: %v", context.Cause(ctx))
	}
	_ = p.Close(time.Second) // what is left of its tree is killed; its output closes
	<-read
	c.Output = out.String()
	if c.Error == "" {
		c.ExitCode, c.Error = exitCode(p.ExitStatus())
	}
	return c
}

// exitCode reads exec's "exit status N"; anything else (a signal) did not exit by itself.
func exitCode(status string) (int, string) {
	if n, ok := strings.CutPrefix(status, "exit status "); ok {
		if code, err := strconv.Atoi(n); err == nil {
			return code, ""
		}
	}
	return -1, "the check ended by " + status
}

// tail keeps the last max bytes written to it.
type tail struct {
	max int
	buf []byte
	cut bool
}

func (t *tail) Write(p []byte) (int, error) {
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
		t.cut = true
	}
	return len(p), nil
}

// String is the text kept, from a character's start, without terminal control sequences.
func (t *tail) String() string {
	b := t.buf
	if t.cut {
		for len(b) > 0 && !utf8.RuneStart(b[0]) {
			b = b[1:]
		}
	}
	s := strings.ToValidUTF8(terminal.PlainText(string(b)), "\uFFFD")
	if t.cut {
		s = "…" + s
	}
	return s
}
