package acp_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/acptest"
	"agentdesk/backend/acp/jsonrpc"
	"agentdesk/backend/acp/schema"
)

// reattachAgent advertises caps; session/load replays one old message before answering.
type reattachAgent struct {
	caps    string
	methods chan string
	conn    *jsonrpc.Conn
}

func (a *reattachAgent) HandleNotification(string, json.RawMessage) {}
func (a *reattachAgent) HandleRequest(req *jsonrpc.Request) {
	a.methods <- req.Method
	switch req.Method {
	case schema.MethodInitialize:
		req.Reply(map[string]any{"protocolVersion": 1, "agentCapabilities": json.RawMessage(a.caps)}, nil)
	case schema.MethodSessionNew:
		req.Reply(map[string]any{"sessionId": "r1"}, nil)
	case acp.MethodSessionResume:
		req.Reply(struct{}{}, nil)
	case acp.MethodSessionLoad:
		_ = a.conn.Notify(schema.MethodSessionUpdate, map[string]any{"sessionId": "r1",
			"update": json.RawMessage(`{"sessionUpdate":"user_message_chunk","content":{"type":"text","text":"replayed history"}}`)})
		req.Reply(struct{}{}, nil)
	case schema.MethodSessionPrompt:
		_ = a.conn.Notify(schema.MethodSessionUpdate, map[string]any{"sessionId": "r1",
			"update": json.RawMessage(`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"fresh"}}`)})
		req.Reply(schema.PromptResult{StopReason: schema.StopEndTurn}, nil)
	default:
		req.Reply(nil, &jsonrpc.Error{Code: schema.CodeMethodNotFound, Message: req.Method})
	}
}

func TestContinueAfterTheAgentIsGone(t *testing.T) {
	for _, c := range []struct {
		caps   string
		want   acp.Continued
		method string
	}{
		{`{"sessionCapabilities":{"resume":{}}}`, acp.ContinuedResumed, acp.MethodSessionResume},
		{`{"loadSession":true}`, acp.ContinuedReplayed, acp.MethodSessionLoad},
		{`{}`, acp.ContinuedSummarised, schema.MethodSessionNew},
	} {
		t.Run(string(c.want), func(t *testing.T) {
			methods := make(chan string, 32)
			ev := newEvents()
			s := acp.NewSession(acp.Config{ID: "s1", AgentName: "re", Cwd: "/p", Emitter: ev, Logf: t.Logf,
				Launch: func(context.Context) (acp.Transport, error) {
					return acptest.ServeHandler(func(conn *jsonrpc.Conn) jsonrpc.Handler {
						return &reattachAgent{caps: c.caps, methods: methods, conn: conn}
					}), nil
				}})
			defer s.Close()
			if err := s.Start(context.Background()); err != nil {
				t.Fatal(err)
			}
			var stateErr *acp.StateError
			if _, err := s.Continue(context.Background()); !errors.Is(err, acp.ErrNotExited) || !errors.As(err, &stateErr) || stateErr.State != acp.StateIdle {
				t.Fatalf("Continue on a running session: %v, want ErrNotExited in state idle", err)
			}
			// The turn session/load replays (its prompt is the one the agent replays).
			if _, err := s.Prompt("replayed history"); err != nil {
				t.Fatal(err)
			}
			ev.waitFor(t, "turn_end", kind(acp.EventTurnEnd))
			ev.waitFor(t, "idle", func(e acp.Event) bool { return e.Kind == acp.EventState && e.State == acp.StateIdle })
			if err := s.HardStop(); err != nil {
				t.Fatal(err)
			}
			ev.waitFor(t, "exited", func(e acp.Event) bool { return e.Kind == acp.EventState && e.State == acp.StateExited })
			how, err := s.Continue(context.Background())
			if err != nil || how != c.want {
				t.Fatalf("Continue = %q, %v; want %q", how, err, c.want)
			}
			var last string
			for len(methods) > 0 {
				last = <-methods
			}
			if last != c.method {
				t.Fatalf("reattached with %s, want %s", last, c.method)
			}
			if _, err := s.Prompt("again"); err != nil {
				t.Fatal(err)
			}
			ev.waitFor(t, "turn_end", kind(acp.EventTurnEnd))
			if n := countText(s.Snapshot().Entries, acp.KindUser, "replayed history"); n != 1 {
				t.Fatalf("the prompt replayed by session/load is shown %d times", n)
			}
			if b := boundaries(s.Snapshot().Entries); len(b) != 1 || b[0].Boundary.Kind != string(c.want) {
				t.Fatalf("boundaries %+v, want one %s", b, c.want)
			}
		})
	}
}
