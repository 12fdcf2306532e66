package acp_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/acptest"
	"agentdesk/backend/acp/jsonrpc"
	"agentdesk/backend/acp/schema"
)

// forkAgent advertises caps, answers session/fork (refusing it when refuse is set) and
// session/new, and passes every request on to calls.
type forkAgent struct {
	caps   string
	refuse bool
	calls  chan *jsonrpc.Request
}

func (a *forkAgent) HandleNotification(string, json.RawMessage) {}
func (a *forkAgent) HandleRequest(req *jsonrpc.Request) {
	a.calls <- req
	switch req.Method {
	case schema.MethodInitialize:
		req.Reply(map[string]any{"protocolVersion": 1, "agentCapabilities": json.RawMessage(a.caps)}, nil)
	case acp.MethodSessionFork:
		if a.refuse {
			req.Reply(nil, &jsonrpc.Error{Code: schema.CodeMethodNotFound, Message: "no fork here"})
			return
		}
		req.Reply(map[string]any{"sessionId": "forked-1"}, nil)
	case schema.MethodSessionNew:
		req.Reply(map[string]any{"sessionId": "new-1"}, nil)
	case schema.MethodSessionPrompt:
		req.Reply(schema.PromptResult{StopReason: schema.StopEndTurn}, nil)
	default:
		req.Reply(nil, &jsonrpc.Error{Code: schema.CodeMethodNotFound, Message: req.Method})
	}
}

// parentEntries is a two-turn transcript: prompts "one" and "two", each answered.
func parentEntries() []acp.Entry {
	return []acp.Entry{
		{ID: "e1", Kind: acp.KindUser, Turn: 1, Text: "one"},
		{ID: "e2", Kind: acp.KindAgent, Turn: 1, Text: "answer one"},
		{ID: "e3", Kind: acp.KindUser, Turn: 2, Text: "two"},
		{ID: "e4", Kind: acp.KindAgent, Turn: 2, Text: "answer two"},
	}
}

// TestForkOpens: a linked session uses session/fork of the parent's agent session when the
// agent offers it (the boundary says the agent forked it, no summary is sent); without the
// capability, with it refused, or with no agent session to fork (an earlier turn), it opens a
// new agent session whose first prompt carries a summary of the transcript up to the branch.
func TestForkOpens(t *testing.T) {
	for _, c := range []struct {
		name, caps string
		refuse     bool
		parentASID string
		wantFork   bool // session/fork was called
		wantForked bool // and it is how the session opened
	}{
		{"session/fork", `{"sessionCapabilities":{"fork":{}}}`, false, "p-1", true, true},
		{"no capability", `{}`, false, "p-1", false, false},
		{"refused", `{"sessionCapabilities":{"fork":{}}}`, true, "p-1", true, false},
		{"earlier turn", `{"sessionCapabilities":{"fork":{}}}`, false, "", false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			calls := make(chan *jsonrpc.Request, 32)
			ev := newEvents()
			entries := acp.ForkEntries(parentEntries(), 1, true)
			s := acp.NewSession(acp.Config{ID: "f1", AgentName: "fa", Cwd: "/p", Emitter: ev, Logf: t.Logf,
				Seed: &acp.Seed{Title: "Parent", Entries: entries, Fork: &acp.ForkOrigin{Link: acp.LinkFork,
					ParentID: "p", ParentTitle: "Parent", Turn: 1, AgentSessionID: c.parentASID}},
				Launch: func(context.Context) (acp.Transport, error) {
					return acptest.ServeHandler(func(*jsonrpc.Conn) jsonrpc.Handler {
						return &forkAgent{caps: c.caps, refuse: c.refuse, calls: calls}
					}), nil
				}})
			defer s.Close()
			how, err := s.Reopen(context.Background())
			if err != nil || how != acp.ContinuedForked {
				t.Fatalf("Reopen = %q, %v; want forked", how, err)
			}
			var forkParams json.RawMessage
			var opened string
			for len(calls) > 0 {
				req := <-calls
				if req.Method == acp.MethodSessionFork {
					forkParams = req.Params
				}
				opened = req.Method
			}
			if (forkParams != nil) != c.wantFork {
				t.Fatalf("session/fork called: %v, want %v", forkParams != nil, c.wantFork)
			}
			if c.wantFork && !strings.Contains(string(forkParams), `"sessionId":"p-1"`) {
				t.Fatalf("session/fork params %s, want the parent's agent session p-1", forkParams)
			}
			wantID := "new-1"
			if c.wantForked {
				wantID = "forked-1"
			}
			if got := s.AgentSessionID(); got != wantID {
				t.Fatalf("agent session %q (last call %s), want %q", got, opened, wantID)
			}
			b := boundaries(s.Snapshot().Entries)
			if len(b) != 1 || b[0].Boundary.Kind != acp.BoundaryForked || b[0].Boundary.Turn != 1 ||
				b[0].Boundary.From != "Parent" || b[0].Boundary.Forked != c.wantForked {
				t.Fatalf("boundaries %+v, want one forked from Parent turn 1 (agent forked: %v)", b, c.wantForked)
			}
			if _, err := s.Prompt("three"); err != nil {
				t.Fatal(err)
			}
			ev.waitFor(t, "turn_end", kind(acp.EventTurnEnd))
			var prompt string
			for len(calls) > 0 {
				if req := <-calls; req.Method == schema.MethodSessionPrompt {
					prompt = string(req.Params)
				}
			}
			if summarised := strings.Contains(prompt, "answer one"); summarised == c.wantForked {
				t.Fatalf("prompt %s: summary sent %v, want %v", prompt, summarised, !c.wantForked)
			}
			if strings.Contains(prompt, "answer two") {
				t.Fatalf("prompt %s holds turn 2, after the branch", prompt)
			}
		})
	}
}

// TestForkEntries: a fork keeps the branch turn, a rerun stops before it.
func TestForkEntries(t *testing.T) {
	if got := acp.ForkEntries(parentEntries(), 2, false); len(got) != 2 || got[1].ID != "e2" {
		t.Fatalf("rerun of turn 2 keeps %+v, want turn 1", got)
	}
	if got := acp.ForkEntries(parentEntries(), 2, true); len(got) != 4 {
		t.Fatalf("fork at turn 2 keeps %d entries, want 4", len(got))
	}
	if got := acp.ForkEntries(parentEntries(), 1, false); len(got) != 0 {
		t.Fatalf("rerun of turn 1 keeps %+v, want nothing", got)
	}
}
