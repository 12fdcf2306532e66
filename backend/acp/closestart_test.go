package acp_test

import (
	"context"
	"errors"
	"io"
	"sync/atomic"
	"testing"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/acptest"
	"agentdesk/backend/acp/jsonrpc"
)

// TestCloseWhileTheAgentLaunchesLeavesNothingRunning: a session closed while its agent is still
// launching (Close finds no agent to wait for) never starts talking to it: the start fails with
// ErrClosed, the agent is stopped, and nothing it sends is journaled after Close returned.
func TestCloseWhileTheAgentLaunchesLeavesNothingRunning(t *testing.T) {
	sc := script(t, "["+handshake+`{"expect":"session/prompt"}]`)
	launching, release := make(chan struct{}), make(chan struct{})
	var tr *acptest.Transport
	var closed atomic.Bool
	s := acp.NewSession(acp.Config{ID: "s1", AgentName: "scripted", Cwd: "/p", Emitter: newEvents(), Logf: t.Logf,
		Journal: func(jsonrpc.Direction, string, []byte) {
			if closed.Load() {
				t.Error("journaled after Close returned")
			}
		},
		Launch: func(context.Context) (acp.Transport, error) {
			close(launching)
			<-release
			tr = acptest.Serve(func(in io.Reader, out io.Writer) error { return sc.Run(in, out) })
			return tr, nil
		}})
	started := make(chan error, 1)
	go func() { started <- s.Start(context.Background()) }()
	<-launching
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	closed.Store(true)
	close(release)
	if err := <-started; !errors.Is(err, acp.ErrClosed) {
		t.Fatalf("Start = %v, want ErrClosed", err)
	}
	select {
	case <-tr.Exited():
	default:
		t.Fatal("the agent launched during Close still runs")
	}
}
