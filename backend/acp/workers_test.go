package acp_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/acptest"
	"agentdesk/backend/acp/jsonrpc"
	"agentdesk/backend/acp/schema"
)

// TestQueuedRequestsAreAnsweredOnClose: with every worker held busy, the fs/* and terminal/create
// requests that wait for one are answered "the session is closing" when the session closes,
// before the agent is stopped; those running are finished, and Close returns once they are.
func TestQueuedRequestsAreAnsweredOnClose(t *testing.T) {
	const running, queued = 16, 8
	dir := t.TempDir()
	file := filepath.Join(dir, "a.txt")
	must(t, os.WriteFile(file, []byte("a"), 0o644))
	entered, release := make(chan string, running+queued), make(chan struct{})
	sent := make(chan []*jsonrpc.Pending, 1)
	cfg := acp.Config{ID: "s1", AgentName: "busy", Cwd: dir, Emitter: newEvents(), Logf: t.Logf,
		Launch: func(context.Context) (acp.Transport, error) {
			return acptest.ServeHandler(func(c *jsonrpc.Conn) jsonrpc.Handler {
				return &promptAgent{conn: c, onPrompt: func(c *jsonrpc.Conn, req *jsonrpc.Request) {
					defer req.Reply(schema.PromptResult{StopReason: schema.StopEndTurn}, nil)
					var pending []*jsonrpc.Pending
					for i := range running + queued {
						var p *jsonrpc.Pending
						var err error
						if i%3 == 2 {
							p, err = c.Start(schema.MethodTerminalCreate, schema.CreateTerminalParams{SessionID: "p1", Command: "true"})
						} else {
							p, err = c.Start(schema.MethodReadTextFile, schema.ReadTextFileParams{SessionID: "p1", Path: file})
						}
						if err != nil {
							t.Error(err)
							return
						}
						pending = append(pending, p)
					}
					// Answered by the inbound loop after every request before it was handed on.
					if err := c.Call(context.Background(), "x/ping", nil, nil); acptest.RPCCode(err) != schema.CodeMethodNotFound {
						t.Errorf("ping: %v", err)
					}
					sent <- pending
				}}
			}), nil
		}}
	acp.SetServeHook(&cfg, func(method string) {
		entered <- method
		<-release
	})
	s := acp.NewSession(cfg)
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Prompt("go"); err != nil {
		t.Fatal(err)
	}
	pending := <-sent
	for range running {
		<-entered
	}
	closed := make(chan struct{})
	go func() {
		s.Close()
		close(closed)
	}()
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	for i, p := range pending[running:] {
		if err := p.Wait(ctx, nil); !strings.Contains(fmt.Sprint(err), "the session is closing") {
			t.Errorf("queued request %d: %v, want the session is closing", running+i, err)
		}
	}
	select {
	case <-closed:
		t.Fatal("Close returned while requests were still running")
	default:
	}
	close(release)
	<-closed
	for i, p := range pending[:running] {
		if err := p.Wait(ctx, nil); ctx.Err() != nil {
			t.Fatalf("running request %d never settled: %v", i, err)
		}
	}
	if len(entered) != 0 {
		t.Fatalf("%d queued requests ran after Close", len(entered))
	}
}
