package main

import (
	"strings"
	"testing"

	"agentdesk/backend/acp"
)

// TestRerunEditedInTheWindow: an edited message reruns in a new session linked to the original,
// which keeps its own turn; the history shows the link on the child and a fork on the parent,
// and the link stays, marked, once the parent is deleted. A turn that is not there is refused.
func TestRerunEditedInTheWindow(t *testing.T) {
	a, rec, info := startDemoApp(t)
	id := info.SessionID
	if err := a.sessions.Prompt(id, "add a note"); err != nil {
		t.Fatal(err)
	}
	perm := rec.waitFor(t, func(e acp.Event) bool { return e.SessionID == id && e.Kind == acp.EventPermission })
	if err := a.sessions.AnswerPermission(id, perm.RequestID, perm.Options[0].ID); err != nil {
		t.Fatal(err)
	}
	rec.waitFor(t, func(e acp.Event) bool { return e.SessionID == id && e.Kind == acp.EventTurnEnd })

	if _, err := a.sessions.RerunEdited(id, 5, "no such turn"); err == nil || !strings.Contains(err.Error(), "could not branch") {
		t.Fatalf("rerun of a missing turn: %v", err)
	}
	child, err := a.sessions.RerunEdited(id, 1, "add a better note")
	if err != nil || child.SessionID == id {
		t.Fatalf("RerunEdited = %+v, %v", child, err)
	}
	user := rec.waitFor(t, func(e acp.Event) bool {
		return e.SessionID == child.SessionID && e.Kind == acp.EventEntry && e.Entry.Kind == acp.KindUser
	})
	if user.Entry.Text != "add a better note" || user.Entry.Turn != 1 {
		t.Fatalf("the rerun's first prompt: %+v", user.Entry)
	}
	perm = rec.waitFor(t, func(e acp.Event) bool { return e.SessionID == child.SessionID && e.Kind == acp.EventPermission })
	if err := a.sessions.AnswerPermission(child.SessionID, perm.RequestID, perm.Options[0].ID); err != nil {
		t.Fatal(err)
	}
	rec.waitFor(t, func(e acp.Event) bool { return e.SessionID == child.SessionID && e.Kind == acp.EventTurnEnd })

	items, err := a.history.ListHistory("")
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]HistoryItem{}
	for _, it := range items {
		byID[it.ID] = it
	}
	if p := byID[id]; p.Forks != 1 || p.ParentID != "" {
		t.Fatalf("the parent in the history: %+v, want one fork", p)
	}
	if c := byID[child.SessionID]; c.ParentID != id || c.LinkKind != acp.LinkRerun || c.ParentTurn != 1 || c.ParentDeleted {
		t.Fatalf("the rerun in the history: %+v, want a rerun of %s at turn 1", c, id)
	}
	if err := a.sessions.CloseSession(id); err != nil {
		t.Fatal(err)
	}
	if err := a.history.DeleteHistory(id); err != nil {
		t.Fatal(err)
	}
	items, err = a.history.ListHistory("")
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range items {
		if it.ID == child.SessionID && (!it.ParentDeleted || it.ParentTitle == "") {
			t.Fatalf("after deleting the parent: %+v, want the link kept, marked deleted", it)
		}
	}
}
