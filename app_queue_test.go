package main

import (
	"errors"
	"strings"
	"testing"

	"agentdesk/backend/acp"
)

// TestQueueVerbs: a prompt during the Demo agent's turn is queued (no error), its queue reaches
// the page, the verbs change it, and a steer on an agent without steering is refused in the
// window's words with the prompt kept.
func TestQueueVerbs(t *testing.T) {
	a, rec, info := startDemoApp(t)
	id := info.SessionID
	if err := a.sessions.Prompt(id, "hello"); err != nil {
		t.Fatal(err)
	}
	rec.waitFor(t, func(e acp.Event) bool { return e.Kind == acp.EventPermission })
	if err := a.sessions.Prompt(id, "next one"); err != nil {
		t.Fatalf("a prompt during a turn: %v, want it queued", err)
	}
	q := rec.waitFor(t, func(e acp.Event) bool { return e.Kind == acp.EventQueue && len(e.Queue) == 1 })
	item := q.Queue[0].ID
	if err := a.sessions.EditQueued(id, item, "next one, edited"); err != nil {
		t.Fatal(err)
	}
	rec.waitFor(t, func(e acp.Event) bool {
		return e.Kind == acp.EventQueue && len(e.Queue) == 1 && e.Queue[0].Text == "next one, edited"
	})
	err := a.sessions.Steer(id, item)
	if err == nil || !strings.HasPrefix(err.Error(), "this agent cannot take a message into its running turn") || !errors.Is(err, acp.ErrCannotSteer) {
		t.Fatalf("steer on the Demo agent: %v", err)
	}
	if err := a.sessions.RemoveQueued(id, item); err != nil {
		t.Fatal(err)
	}
	if err := a.sessions.SendQueuedNow(id, item); err == nil || !strings.HasPrefix(err.Error(), "that prompt is no longer queued") {
		t.Fatalf("send now of a removed prompt: %v", err)
	}
	if snap, err := a.sessions.Snapshot(id); err != nil || len(snap.Queue) != 0 {
		t.Fatalf("snapshot queue %+v, %v", snap.Queue, err)
	}
}

func TestQueueWords(t *testing.T) {
	for _, c := range []struct {
		err  error
		want string
	}{
		{acp.ErrNoTurn, "no turn is running to steer; the prompt stays queued"},
		{acp.ErrEmptyPrompt, "a queued prompt cannot be empty: remove it instead"},
		{&acp.SteerRefusedError{Agent: "Codex", Outcome: "failed"},
			`Codex did not take the prompt into its turn (outcome "failed"); it stays queued and is sent when the turn ends`},
	} {
		if got := forWindow(c.err); got == nil || got.Error() != c.want || !errors.Is(got, c.err) {
			t.Errorf("forWindow(%v) = %v, want %q", c.err, got, c.want)
		}
	}
}
