package main

import (
	"strings"
	"testing"

	"agentdesk/backend/acp"
)

// TestContinueASavedSessionInTheWindow: a closed session with an answered permission reopens
// with its decision shown, continues under its id (the demo agent cannot resume, so it gets a
// summary, and the boundary says so), and takes a new turn; continuing a live one is refused.
func TestContinueASavedSessionInTheWindow(t *testing.T) {
	a, rec, info := startDemoApp(t)
	id := info.SessionID
	if err := a.sessions.Prompt(id, "add a note"); err != nil {
		t.Fatal(err)
	}
	perm := rec.waitFor(t, func(e acp.Event) bool { return e.Kind == acp.EventPermission })
	if err := a.sessions.AnswerPermission(id, perm.RequestID, perm.Options[0].ID); err != nil {
		t.Fatal(err)
	}
	rec.waitFor(t, func(e acp.Event) bool { return e.Kind == acp.EventTurnEnd })
	if err := a.sessions.CloseSession(id); err != nil {
		t.Fatal(err)
	}
	saved, err := a.history.OpenHistory(id)
	if err != nil || len(saved.Decisions) != 1 || saved.Decisions[0].RequestID != perm.RequestID || saved.Decisions[0].DecidedBy != acp.DecidedByUser {
		t.Fatalf("the reopened session's decisions: %+v, %v", saved.Decisions, err)
	}

	again, err := a.sessions.ContinueSaved(id)
	if err != nil || again.SessionID != id || again.Cwd != info.Cwd {
		t.Fatalf("ContinueSaved = %+v, %v", again, err)
	}
	if _, err := a.sessions.ContinueSaved(id); err == nil || !strings.Contains(err.Error(), "already live") {
		t.Fatalf("continuing a live session: %v", err)
	}
	b := rec.waitFor(t, func(e acp.Event) bool {
		return e.SessionID == id && e.Kind == acp.EventEntry && e.Entry.Kind == acp.KindBoundary
	})
	if b.Entry.Boundary == nil || b.Entry.Boundary.Kind != acp.BoundarySummarised {
		t.Fatalf("boundary %+v, want summarised", b.Entry)
	}
	rec.waitFor(t, func(e acp.Event) bool {
		return e.SessionID == id && e.Kind == acp.EventState && e.State == acp.StateIdle
	})
	if err := a.sessions.Prompt(id, "and one more"); err != nil {
		t.Fatal(err)
	}
	perm = rec.waitFor(t, func(e acp.Event) bool { return e.SessionID == id && e.Kind == acp.EventPermission })
	if err := a.sessions.AnswerPermission(id, perm.RequestID, perm.Options[0].ID); err != nil {
		t.Fatal(err)
	}
	end := rec.waitFor(t, func(e acp.Event) bool { return e.SessionID == id && e.Kind == acp.EventTurnEnd })
	if end.Turn != 2 {
		t.Fatalf("the continued turn is turn %d, want 2", end.Turn)
	}
}
