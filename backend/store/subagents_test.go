package store

import (
	"context"
	"errors"
	"testing"
)

// TestSubagentTree: a subagent session is saved under its own id with its parent's, is listed
// and read like any session, and deleting the parent deletes its children at every depth with
// their entries and index rows; deleting a child alone leaves the parent.
func TestSubagentTree(t *testing.T) {
	s := openTest(t)
	ctx := context.Background()
	w := s.Writer()
	w.CreateSession(Session{ID: "p", AgentID: "a", AgentName: "A", Title: "parent"})
	w.CreateSession(Session{ID: "c1", ParentID: "p", AgentID: "a", AgentName: "A", Title: "Explore"})
	w.CreateSession(Session{ID: "c2", ParentID: "p", AgentID: "a", AgentName: "A", Title: "Review"})
	w.CreateSession(Session{ID: "g1", ParentID: "c1", AgentID: "a", AgentName: "A", Title: "grandchild"})
	w.CreateSession(Session{ID: "other", AgentID: "a", AgentName: "A", Title: "unrelated"})
	w.UpsertEntry(Entry{SessionID: "g1", EntryID: "e1", Seq: 1, Kind: "agent", Text: "zebrafish found", Body: []byte(`{"id":"e1","kind":"agent"}`)})
	w.UpsertEntry(Entry{SessionID: "c2", EntryID: "e1", Seq: 1, Kind: "agent", Text: "reviewed", Body: []byte(`{"id":"e1","kind":"agent"}`)})
	flush(t, s.Store)

	got, _, entries, err := s.Session(ctx, "g1")
	if err != nil || got.ParentID != "c1" || len(entries) != 1 {
		t.Fatalf("grandchild %+v, %d entries (%v): want parent c1 and its entry", got, len(entries), err)
	}
	list, err := s.ListSessions(ctx, "", 0)
	if err != nil {
		t.Fatal(err)
	}
	parents := map[string]string{}
	for _, sum := range list {
		parents[sum.ID] = sum.ParentID
	}
	if parents["c1"] != "p" || parents["c2"] != "p" || parents["g1"] != "c1" || parents["p"] != "" {
		t.Fatalf("listed parents %v", parents)
	}
	if found, err := s.ListSessions(ctx, "zebrafish", 0); err != nil || len(found) != 1 || found[0].ID != "g1" {
		t.Fatalf("search found %+v (%v), want the grandchild", found, err)
	}

	if err := s.DeleteSession(ctx, "c2"); err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := s.Session(ctx, "p"); err != nil {
		t.Fatalf("deleting a child deleted its parent: %v", err)
	}
	if err := s.DeleteSession(ctx, "p"); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"p", "c1", "g1"} {
		if _, _, _, err := s.Session(ctx, id); !errors.Is(err, ErrNotFound) {
			t.Errorf("session %s after deleting the parent: %v, want ErrNotFound", id, err)
		}
	}
	if _, _, _, err := s.Session(ctx, "other"); err != nil {
		t.Errorf("an unrelated session went too: %v", err)
	}
	if found, err := s.ListSessions(ctx, "zebrafish", 0); err != nil || len(found) != 0 {
		t.Errorf("search still finds %+v (%v) after the tree was deleted", found, err)
	}
	var n int
	if err := s.db.QueryRow(`SELECT count(*) FROM entries`).Scan(&n); err != nil || n != 0 {
		t.Errorf("%d entries left (%v), want none", n, err)
	}
}

// TestSubagentMigration: a file at schema 12 (before parent ids) opens, its sessions read as
// started by a person, and new sessions take a parent.
func TestSubagentMigration(t *testing.T) {
	ctx := context.Background()
	path := oldFileWithSession(t, 12)
	s := openTestAt(t, path)
	var version int
	if err := s.db.QueryRow(`PRAGMA user_version`).Scan(&version); err != nil || version < 13 {
		t.Fatalf("user_version %d (%v), want the parent migration applied", version, err)
	}
	s.Writer().CreateSession(Session{ID: "child", ParentID: "old", AgentID: "a", AgentName: "A", Title: "Sub"})
	flush(t, s.Store)
	old, _, _, err := s.Session(ctx, "old")
	if err != nil || old.ParentID != "" {
		t.Fatalf("old session %+v (%v): want no parent", old, err)
	}
	if err := s.DeleteSession(ctx, "old"); err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := s.Session(ctx, "child"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("the child of a migrated session outlived it: %v", err)
	}
}
