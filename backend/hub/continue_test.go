package hub

import (
	"context"
	"errors"
	"testing"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/schema"
	"agentdesk/backend/store"
)

// twoRuns is an agent that plays its first run (a session and one turn), then, started again
// with SECOND set, continues: by session/resume when RESUME is set, else with a new session
// (the hub then gives it a summary). A resume's answer names no session, so the update names it.
const twoRuns = `[
	{"expect":"initialize"},
	{"reply":{"protocolVersion":1,"agentCapabilities":{"sessionCapabilities":{"resume":{}}}},"when":"RESUME"},
	{"reply":{"protocolVersion":1,"agentCapabilities":{}},"when":"!RESUME"},
	{"expect":"session/new","when":"!SECOND"}, {"reply":{"sessionId":"x"},"when":"!SECOND"},
	{"expect":"session/resume","when":"RESUME"}, {"reply":{},"when":"RESUME"},
	{"expect":"session/new","when":"SUMMARY"}, {"reply":{"sessionId":"x"},"when":"SUMMARY"},
	{"expect":"session/prompt"},
	{"send":{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"x",
		"update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"done"}}}}},
	{"reply":{"stopReason":"end_turn"}},
	{"expect":"never"}]`

// savedTwoRunSession opens a history in a fresh folder and a hub over it with agent "a" playing
// twoRuns, and saves one session of it (one turn): the start of a test that continues it. The hub
// and the history are closed when the test ends.
func savedTwoRunSession(t *testing.T) (h *Hub, st *store.Store, dir, id string) {
	t.Helper()
	dir = t.TempDir()
	h, st = scriptHub(t, dir, twoRuns)
	t.Cleanup(func() { h.CloseAll(context.Background()) })
	return h, st, dir, runTurns(t, h, dir, "first")
}

// runTurns starts a session of h's agent "a" in dir, runs a turn for each prompt and closes it:
// a saved session to continue or branch from. It returns the session's id.
func runTurns(t *testing.T, h *Hub, dir string, prompts ...string) string {
	t.Helper()
	s, states := idleSession(t, h, dir)
	for _, p := range prompts {
		if _, err := s.Prompt(p); err != nil {
			t.Fatal(err)
		}
		waitState(t, states, acp.StateRunning)
		waitState(t, states, acp.StateIdle)
	}
	if err := h.Close(context.Background(), s.ID()); err != nil {
		t.Fatal(err)
	}
	return s.ID()
}

// TestContinueSavedSession: a saved session comes back live under its id, the agent resumes it
// (or, when it cannot, starts anew with a summary), the boundary says which, and the next turn
// is saved after the first, with the entries in order.
func TestContinueSavedSession(t *testing.T) {
	for _, c := range []struct {
		env  string
		kind string
	}{{"RESUME", acp.BoundaryResumed}, {"SUMMARY", acp.BoundarySummarised}} {
		t.Run(c.kind, func(t *testing.T) {
			ctx := context.Background()
			h, st, dir, id := savedTwoRunSession(t)

			t.Setenv("SECOND", "1")
			t.Setenv(c.env, "1")
			out, states := stateEvents()
			s, info, err := h.ContinueSaved(ctx, ContinueRequest{SessionID: id}, out)
			if err != nil {
				t.Fatal(err)
			}
			if s.ID() != id || info.SessionID != id || info.AgentID != "a" || info.Cwd != dir {
				t.Fatalf("continued as %+v, want session %s of agent a in %s", info, id, dir)
			}
			if _, _, err := h.ContinueSaved(ctx, ContinueRequest{SessionID: id}, out); !errors.Is(err, ErrAlreadyLive) {
				t.Fatalf("continuing it again: %v, want ErrAlreadyLive", err)
			}
			waitState(t, states, acp.StateIdle)
			if _, err := s.Prompt("second"); err != nil {
				t.Fatal(err)
			}
			waitState(t, states, acp.StateRunning)
			waitState(t, states, acp.StateIdle)
			if err := h.Close(ctx, id); err != nil {
				t.Fatal(err)
			}
			sess, turns, entries, err := st.Session(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if len(turns) != 2 || turns[1].Prompt != "second" || turns[1].StopReason != schema.StopEndTurn || sess.Outcome != schema.StopEndTurn {
				t.Fatalf("saved turns %+v, outcome %q", turns, sess.Outcome)
			}
			var kinds []string
			boundary := ""
			for i, e := range entries {
				if i > 0 && e.Seq <= entries[i-1].Seq {
					t.Fatalf("entries out of order: %+v", entries)
				}
				kinds = append(kinds, e.Kind)
				if e.Kind == string(acp.KindBoundary) {
					snap := SnapshotFromStore(sess, turns, entries[i:i+1])
					if b := snap.Entries[0].Boundary; b != nil {
						boundary = b.Kind
					}
				}
			}
			want := []string{"user", "agent", "boundary", "user", "agent"}
			if len(kinds) != len(want) || boundary != c.kind {
				t.Fatalf("saved entries %v with boundary %q, want %v with %q", kinds, boundary, want, c.kind)
			}
		})
	}
}
