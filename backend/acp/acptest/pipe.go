// Package acptest runs ACP agents in-process for tests, the way net/http/httptest runs servers:
// a Transport over in-memory pipes that behaves like an agent process (EOF on stdin ends it,
// Close waits for it, exit status and stderr are reported).
package acptest

import (
	"io"
	"sync"
	"time"

	"agentdesk/backend/acp"
)

// Agent is the agent side: it reads its stdin, writes its stdout and returns when done.
type Agent func(stdin io.Reader, stdout io.Writer) error

// Transport is an in-process agent. It implements acp.Transport.
type Transport struct {
	stdout   *io.PipeReader // what we read
	stdin    *io.PipeWriter // what we write
	agentOut *io.PipeWriter
	exited   chan struct{}
	mu       sync.Mutex
	status   string
	Stderr   *acp.Ring
}

// Serve starts agent on its own goroutine, connected to the returned Transport.
func Serve(agent Agent) *Transport {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	t := &Transport{stdout: outR, stdin: inW, agentOut: outW, exited: make(chan struct{}), Stderr: acp.NewRing(200, 64<<10)}
	go func() {
		err := agent(inR, outW)
		status := "exit status 0"
		if err != nil {
			status = "exit status 1: " + err.Error()
		}
		t.mu.Lock()
		t.status = status
		t.mu.Unlock()
		inR.Close()
		outW.Close()
		close(t.exited)
	}()
	return t
}

func (t *Transport) Read(p []byte) (int, error)  { return t.stdout.Read(p) }
func (t *Transport) Write(p []byte) (int, error) { return t.stdin.Write(p) }

// Exited implements acp.Transport.
func (t *Transport) Exited() <-chan struct{} { return t.exited }

// ExitStatus implements acp.Transport.
func (t *Transport) ExitStatus() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.status
}

// StderrTail implements acp.Transport.
func (t *Transport) StderrTail() string { return t.Stderr.String() }

// Close closes the agent's stdin and waits for it to return; an agent that ignores EOF is cut
// off after grace by closing its stdout (in-process agents cannot be killed).
func (t *Transport) Close(grace time.Duration) error {
	t.stdin.Close()
	select {
	case <-t.exited:
	case <-time.After(grace):
		t.agentOut.CloseWithError(io.ErrClosedPipe)
		t.stdout.Close()
	}
	return nil
}
