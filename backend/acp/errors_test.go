package acp_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/acptest"
	"agentdesk/backend/acp/jsonrpc"
)

// newTestSession is a session of launch's agent that the test closes at its end.
func newTestSession(t *testing.T, launch func() acp.Transport) (*acp.Session, *events) {
	t.Helper()
	ev := newEvents()
	s := acp.NewSession(acp.Config{ID: "s1", AgentName: "Acme", Cwd: t.TempDir(), Emitter: ev, Logf: t.Logf,
		Launch: func(context.Context) (acp.Transport, error) { return launch(), nil }})
	t.Cleanup(func() { s.Close() })
	return s, ev
}

func TestHardStopWithoutAnAgentIsErrNotRunning(t *testing.T) {
	s, _ := newTestSession(t, nil)
	if err := s.HardStop(); !errors.Is(err, acp.ErrNotRunning) {
		t.Fatalf("HardStop before Start: %v, want ErrNotRunning", err)
	}
}

func TestAClosedSessionRefusesWithErrClosed(t *testing.T) {
	s, _ := startDemo(t, 0)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Prompt("hello"); !errors.Is(err, acp.ErrClosed) {
		t.Fatalf("Prompt after Close: %v, want ErrClosed", err)
	}
	if _, err := s.Continue(context.Background()); !errors.Is(err, acp.ErrClosed) {
		t.Fatalf("Continue after Close: %v, want ErrClosed", err)
	}
}

// TestAnAgentThatDiesDuringACallIsAGoneError: the error says how the agent ended and what it
// last wrote, and still wraps the connection's end and its cause.
func TestAnAgentThatDiesDuringACallIsAGoneError(t *testing.T) {
	var agent *acptest.Transport
	s, _ := newTestSession(t, func() acp.Transport {
		agent = acptest.Serve(func(in io.Reader, _ io.Writer) error {
			_, _ = bufio.NewReader(in).ReadString('\n') // initialize
			_, _ = agent.Stderr.Write([]byte("panic: no config\n"))
			return errors.New("crashed")
		})
		return agent
	})
	err := s.Start(context.Background())
	var gone *acp.GoneError
	if !errors.As(err, &gone) || gone.How != "the agent exited (exit status 1: crashed)" || gone.Stderr != "panic: no config" {
		t.Fatalf("Start: %#v, want a GoneError with the exit status and the stderr line", err)
	}
	if !errors.Is(err, jsonrpc.ErrConnClosed) || !errors.Is(err, jsonrpc.ErrPeerClosed) {
		t.Fatalf("Start: %v, want it to wrap ErrConnClosed and ErrPeerClosed", err)
	}
	if want := "initialize Acme: the agent exited (exit status 1: crashed); its last output on stderr:\npanic: no config"; err.Error() != want {
		t.Fatalf("Start: %q, want %q", err, want)
	}
	// The window says it in words, once: the entry names the agent and how it ended, and shows
	// the stderr beneath rather than in the sentence; the state says the same.
	snap := s.Snapshot()
	last := snap.Entries[len(snap.Entries)-1]
	if want := "Acme did not start: the agent exited (exit status 1: crashed)"; last.Kind != acp.KindError ||
		last.Text != want || !strings.Contains(last.Stderr, "panic: no config") || snap.Message != want {
		t.Fatalf("error entry %q (stderr %q), state message %q; want %q with the stderr beneath", last.Text, last.Stderr, snap.Message, want)
	}
}

// versionAgent answers initialize with another major version of ACP.
type versionAgent struct{}

func (versionAgent) HandleNotification(string, json.RawMessage) {}
func (versionAgent) HandleRequest(req *jsonrpc.Request) {
	req.Reply(map[string]any{"protocolVersion": 2, "agentCapabilities": map[string]any{}}, nil)
}

func TestAnAgentOfAnotherVersionIsAVersionError(t *testing.T) {
	s, _ := newTestSession(t, func() acp.Transport {
		return acptest.ServeHandler(func(*jsonrpc.Conn) jsonrpc.Handler { return versionAgent{} })
	})
	err := s.Start(context.Background())
	var vErr *acp.VersionError
	if !errors.As(err, &vErr) || vErr.Version != 2 || vErr.Agent != "Acme" {
		t.Fatalf("Start: %v, want a VersionError for version 2", err)
	}
	if s.State() != acp.StateFailed {
		t.Fatalf("state %s, want failed", s.State())
	}
}
