package hub

import (
	"context"
	"testing"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/schema"
	"agentdesk/backend/store"
)

// TestOutcomeTellsTheTruth: the history's outcome of a live session follows what really
// happens: ready before its first turn, running while a turn runs (also while it waits on a
// permission), the turn's stop reason once it ends and while the session idles, exited when the
// agent dies on its own; a session closed before any turn ended reads ended, one closed idle
// after a turn keeps that turn's stop reason.
func TestOutcomeTellsTheTruth(t *testing.T) {
	dir := t.TempDir()
	h, st := scriptHub(t, dir, "["+handshake+`
		{"expect":"session/prompt"},
		{"call":"session/request_permission","params":{"toolCall":{"toolCallId":"t1","title":"edit"},
			"options":[{"optionId":"ok","name":"Allow","kind":"allow_once"}]}},
		{"reply":{"stopReason":"end_turn"}},
		{"expect":"session/prompt"},
		{"exit":1,"stderr":"gone"}]`)
	ctx := context.Background()
	outcome := func(id string) string {
		t.Helper()
		if err := st.Writer().Flush(ctx); err != nil {
			t.Fatal(err)
		}
		sess, _, _, err := st.Session(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return sess.Outcome
	}
	start := func() (*acp.Session, chan acp.Event) {
		events := make(chan acp.Event, 64)
		s, _, err := h.Start(StartRequest{AgentID: "a", Cwd: dir}, acp.EmitterFunc(func(ev acp.Event) {
			if ev.Kind == acp.EventState || ev.Kind == acp.EventTurnEnd || ev.Kind == acp.EventPermission {
				events <- ev
			}
		}))
		if err != nil {
			t.Fatal(err)
		}
		return s, events
	}
	next := func(events chan acp.Event, kind acp.EventKind, state acp.State) acp.Event {
		t.Helper()
		for ev := range events {
			if ev.Kind == kind && (state == "" || ev.State == state) {
				return ev
			}
		}
		panic("unreachable")
	}

	s, events := start()
	next(events, acp.EventState, acp.StateIdle)
	if o := outcome(s.ID()); o != store.OutcomeReady {
		t.Fatalf("before the first turn: %q, want ready", o)
	}
	if _, err := s.Prompt("edit it"); err != nil {
		t.Fatal(err)
	}
	perm := next(events, acp.EventPermission, "")
	if o := outcome(s.ID()); o != store.OutcomeRunning {
		t.Fatalf("while the turn waits on a permission: %q, want running", o)
	}
	if err := s.AnswerPermission(perm.RequestID, "ok"); err != nil {
		t.Fatal(err)
	}
	next(events, acp.EventTurnEnd, "")
	next(events, acp.EventState, acp.StateIdle)
	if o := outcome(s.ID()); o != schema.StopEndTurn {
		t.Fatalf("idle after the turn: %q, want end_turn", o)
	}
	if _, err := s.Prompt("again"); err != nil {
		t.Fatal(err)
	}
	next(events, acp.EventState, acp.StateExited)
	if o := outcome(s.ID()); o != string(acp.StateExited) {
		t.Fatalf("after the agent died: %q, want exited", o)
	}

	never, events2 := start()
	next(events2, acp.EventState, acp.StateIdle)
	if err := h.CloseAll(ctx); err != nil {
		t.Fatal(err)
	}
	if o := outcome(never.ID()); o != store.OutcomeEnded {
		t.Fatalf("closed before any turn: %q, want ended", o)
	}
}
