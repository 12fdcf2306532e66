// Package acptest runs ACP agents in-process for tests, the way net/http/httptest runs servers:
// a Transport over in-memory pipes that behaves like an agent process (EOF on stdin ends it,
// Close waits for it, exit status and stderr are reported).
package acptest

import (
	"encoding/json"
	"io"
	"sync"
	"time"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/jsonrpc"
	"agentdesk/backend/supervise"
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
	Stderr   *supervise.Ring
}

var _ acp.Transport = (*Transport)(nil)

// Serve starts agent on its own goroutine, connected to the returned Transport.
func Serve(agent Agent) *Transport {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	t := &Transport{stdout: outR, stdin: inW, agentOut: outW, exited: make(chan struct{}), Stderr: supervise.NewRing(200, 64<<10)}
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

// ServeHandler runs an in-process agent built on jsonrpc.Conn: newHandler receives the agent's own
// connection (to send updates and call the client) and returns what handles the client's
// messages. No message is dispatched before newHandler has returned.
func ServeHandler(newHandler func(conn *jsonrpc.Conn) jsonrpc.Handler) *Transport {
	return Serve(func(in io.Reader, out io.Writer) error {
		late := &lateHandler{ready: make(chan struct{})}
		conn := jsonrpc.NewConn(in, out, late, jsonrpc.WithLogf(func(string, ...any) {}))
		late.h = newHandler(conn)
		close(late.ready)
		<-conn.Done()
		return nil
	})
}

// lateHandler lets a handler that needs its connection be created after the connection.
type lateHandler struct {
	ready chan struct{}
	h     jsonrpc.Handler
}

var _ jsonrpc.Handler = (*lateHandler)(nil)

func (l *lateHandler) HandleNotification(method string, params json.RawMessage) {
	<-l.ready
	l.h.HandleNotification(method, params)
}

func (l *lateHandler) HandleRequest(req *jsonrpc.Request) {
	<-l.ready
	l.h.HandleRequest(req)
}
