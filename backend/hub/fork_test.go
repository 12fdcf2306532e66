package hub

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/schema"
	"agentdesk/backend/store"
)

// branching plays two turns on session/new; started again it opens by session/fork when FORKED
// is set (advertising the capability with FORKCAP), else by session/new, and answers prompts.
const branching = `[
	{"expect":"initialize"},
	{"reply":{"protocolVersion":1,"agentCapabilities":{"sessionCapabilities":{"fork":{}}}},"when":"FORKCAP"},
	{"reply":{"protocolVersion":1,"agentCapabilities":{}},"when":"!FORKCAP"},
	{"expect":"session/new","when":"!FORKED"}, {"reply":{"sessionId":"x"},"when":"!FORKED"},
	{"expect":"session/fork","when":"FORKED"}, {"reply":{"sessionId":"y"},"when":"FORKED"},
	{"expect":"session/prompt"}, {"reply":{"stopReason":"end_turn"}},
	{"expect":"session/prompt"}, {"reply":{"stopReason":"end_turn"}},
	{"expect":"never"}]`

// sent is what the session's journal says it sent with method.
func sent(t *testing.T, st *store.Store, id, method string) string {
	t.Helper()
	msgs, err := st.Messages(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, m := range msgs {
		if m.Direction == store.DirectionOut && m.Method == method {
			b.Write(m.JSON)
		}
	}
	return b.String()
}

// TestFork: each way of branching saves a new session linked to its parent, which is left as it
// was, with the part of the transcript it branched from and a forked boundary; a rerun sends the
// edited message; a fork at the last turn uses session/fork where the agent offers it, an
// earlier one a summary; continue-agent runs another agent.
func TestFork(t *testing.T) {
	for _, c := range []struct {
		name    string
		req     ForkRequest
		env     []string
		prompt  bool   // a first turn runs (the rerun's text)
		agent   string // the child's agent
		users   []string
		viaFork bool
	}{
		{"rerun", ForkRequest{Link: acp.LinkRerun, Turn: 2, Text: "edited"}, nil, true, "a", []string{"first", "edited"}, false},
		{"fork last turn", ForkRequest{Link: acp.LinkFork, Turn: 2}, []string{"FORKCAP", "FORKED"}, false, "a", []string{"first", "second"}, true},
		{"fork earlier turn", ForkRequest{Link: acp.LinkFork, Turn: 1}, []string{"FORKCAP"}, false, "a", []string{"first"}, false},
		{"continue in another agent", ForkRequest{Link: acp.LinkContinueAgent, AgentID: "b"}, nil, false, "b", []string{"first", "second"}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			ctx := context.Background()
			h, st := scriptHub(t, dir, branching, "a", "b")
			defer h.CloseAll(ctx)
			parent := runTurns(t, h, dir, "first", "second")
			for _, e := range c.env {
				t.Setenv(e, "1")
			}
			out, states := stateEvents()
			req := c.req
			req.SessionID = parent
			s, info, err := h.Fork(ctx, req, out)
			if err != nil {
				t.Fatal(err)
			}
			if info.SessionID == parent || info.AgentID != c.agent {
				t.Fatalf("forked as %+v, want a new session of agent %s", info, c.agent)
			}
			waitState(t, states, acp.StateIdle)
			if c.prompt {
				waitState(t, states, acp.StateRunning)
				waitState(t, states, acp.StateIdle)
			}
			if err := h.Close(ctx, s.ID()); err != nil {
				t.Fatal(err)
			}
			_, _, entries, err := st.Session(ctx, info.SessionID)
			if err != nil {
				t.Fatal(err)
			}
			snap := SnapshotFromStore(store.Session{}, nil, entries)
			var users []string
			var b *acp.Boundary
			for _, e := range snap.Entries {
				switch e.Kind {
				case acp.KindUser:
					users = append(users, e.Text)
				case acp.KindBoundary:
					b = e.Boundary
				}
			}
			if strings.Join(users, ",") != strings.Join(c.users, ",") {
				t.Fatalf("the child's prompts %q, want %q", users, c.users)
			}
			if b == nil || b.Kind != acp.BoundaryForked || b.Link != c.req.Link || b.FromID != parent || b.Forked != c.viaFork {
				t.Fatalf("boundary %+v, want forked (%s) from %s, agent forked: %v", b, c.req.Link, parent, c.viaFork)
			}
			if forks := sent(t, st, info.SessionID, acp.MethodSessionFork); c.viaFork != strings.Contains(forks, `"sessionId":"x"`) {
				t.Fatalf("session/fork sent %q, want one of the parent's agent session x: %v", forks, c.viaFork)
			}
			if c.prompt && !strings.Contains(sent(t, st, info.SessionID, schema.MethodSessionPrompt), "edited") {
				t.Fatal("the edited message was not sent")
			}
			links, err := st.SessionLinks(ctx, []string{parent, info.SessionID})
			if err != nil {
				t.Fatal(err)
			}
			if l := links[info.SessionID].Parent; l == nil || l.Parent != parent || l.Kind != c.req.Link {
				t.Fatalf("child's link %+v, want %s of %s", l, c.req.Link, parent)
			}
			if ch := links[parent].Children; len(ch) != 1 || ch[0] != info.SessionID {
				t.Fatalf("parent's forks %q, want the child", ch)
			}
			_, turns, _, err := st.Session(ctx, parent)
			if err != nil || len(turns) != 2 {
				t.Fatalf("the parent has %d turns (%v), want its 2 untouched", len(turns), err)
			}
		})
	}
}

// TestForkRefused: a request the hub cannot follow fails before anything starts.
func TestForkRefused(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	st := openTestStore(t, filepath.Join(dir, "history.db"))
	defer st.Close()
	h := New(st, agentList{scriptAgent(t, dir, "a", branching)}, t.Logf)
	defer h.CloseAll(ctx)
	parent := runTurns(t, h, dir, "first", "second")
	for _, req := range []ForkRequest{
		{SessionID: parent, Link: "spoon", Turn: 1},
		{SessionID: parent, Link: acp.LinkFork, Turn: 3},
		{SessionID: parent, Link: acp.LinkRerun, Turn: 1, Text: "  "},
	} {
		if _, _, err := h.Fork(ctx, req, acp.EmitterFunc(func(acp.Event) {})); !errors.Is(err, ErrBadFork) {
			t.Errorf("Fork(%+v) = %v, want ErrBadFork", req, err)
		}
	}
	if _, _, err := h.Fork(ctx, ForkRequest{SessionID: "nope", Link: acp.LinkFork, Turn: 1}, acp.EmitterFunc(func(acp.Event) {})); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Fork of an unknown session = %v, want ErrNotFound", err)
	}
}
