package store

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
)

// TestSessionLinks: a child links to its parent and the parent lists its children; deleting the
// parent leaves the child and its link, which then says the parent is gone, with the title it
// had; deleting the child removes its link.
func TestSessionLinks(t *testing.T) {
	s := openTest(t)
	ctx := context.Background()
	for _, id := range []string{"p", "c1", "c2", "lone"} {
		s.Writer().CreateSession(Session{ID: id, AgentID: "a", AgentName: "A", Title: "T " + id})
	}
	s.Writer().LinkSession(Link{Child: "c1", Parent: "p", ParentTurn: 2, Kind: LinkFork, ParentTitle: "T p", ParentAgent: "A"})
	s.Writer().LinkSession(Link{Child: "c2", Parent: "p", ParentTurn: 1, Kind: LinkRerun, ParentTitle: "T p", ParentAgent: "A"})
	flush(t, s.Store)
	links, err := s.SessionLinks(ctx, []string{"p", "c1", "c2", "lone"})
	if err != nil {
		t.Fatal(err)
	}
	if p := links["p"]; p.Parent != nil || len(p.Children) != 2 {
		t.Fatalf("parent's links %+v, want two children and no parent", p)
	}
	if c := links["c1"]; c.Parent == nil || c.Parent.Parent != "p" || c.Parent.ParentTurn != 2 || c.Parent.Kind != LinkFork || c.ParentDeleted {
		t.Fatalf("child's links %+v, want a fork of p at turn 2", c)
	}
	if _, ok := links["lone"]; ok {
		t.Fatalf("a session without links is listed: %+v", links["lone"])
	}
	if err := s.DeleteSession(ctx, "p"); err != nil {
		t.Fatal(err)
	}
	links, err = s.SessionLinks(ctx, []string{"c1", "c2"})
	if err != nil {
		t.Fatal(err)
	}
	if c := links["c2"]; c.Parent == nil || !c.ParentDeleted || c.Parent.ParentTitle != "T p" || c.Parent.Kind != LinkRerun {
		t.Fatalf("after deleting the parent: %+v, want the rerun link marked deleted, titled T p", c)
	}
	if err := s.DeleteSession(ctx, "c1"); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := s.db.QueryRow(`SELECT count(*) FROM session_links`).Scan(&n); err != nil || n != 1 {
		t.Fatalf("%d links left (%v), want only c2's", n, err)
	}
}

// TestLinksMigration: a file at schema 5 (before links) opens, gains the links table, and keeps
// its sessions, which then take links.
func TestLinksMigration(t *testing.T) {
	ctx := context.Background()
	path := oldFileWithSession(t, 5)
	s := openTestAt(t, path)
	var version int
	if err := s.db.QueryRow(`PRAGMA user_version`).Scan(&version); err != nil || version < 7 {
		t.Fatalf("user_version %d (%v), want the links migration applied", version, err)
	}
	s.Writer().CreateSession(Session{ID: "new", AgentID: "a", AgentName: "A", Title: "New"})
	s.Writer().LinkSession(Link{Child: "new", Parent: "old", ParentTurn: 1, Kind: LinkContinueAgent, ParentTitle: "Old"})
	flush(t, s.Store)
	links, err := s.SessionLinks(ctx, []string{"old", "new"})
	if err != nil {
		t.Fatal(err)
	}
	if len(links["old"].Children) != 1 || links["new"].Parent == nil || links["new"].Parent.Kind != LinkContinueAgent {
		t.Fatalf("links after the migration: %+v", links)
	}
}

// oldFileWithSession writes a history file at schema version (its migrations up to that one)
// holding one session, "old", as a file an older agentdesk left, and returns its path.
func oldFileWithSession(t *testing.T, version int) string {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	db, err := sql.Open("sqlite", dsn(path))
	if err != nil {
		t.Fatal(err)
	}
	ms, err := migrations()
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		if m.version > version {
			break
		}
		if err := apply(ctx, db, m); err != nil {
			t.Fatalf("%s: %v", m.name, err)
		}
	}
	if _, err := db.Exec(`INSERT INTO sessions (id, agent_id, agent_name, agent_session_id, cwd, title, outcome,
		created_at, updated_at) VALUES ('old', 'a', 'A', '', '/', 'Old', 'ready', 1, 1)`); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}
