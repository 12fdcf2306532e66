package store

import (
	"context"
	"testing"
)

// TestAWorktreeIsKeptWithItsSessionAndGoesWithIt: a session's worktree reads back as recorded,
// a second record replaces the first, a session without one has none, a discarded one is
// marked so, and deleting the session deletes its record.
func TestAWorktreeIsKeptWithItsSessionAndGoesWithIt(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	w := s.Writer()
	w.CreateSession(Session{ID: "s1", AgentID: "demo"})
	w.CreateSession(Session{ID: "plain", AgentID: "demo"})
	w.SetWorktree("s1", Worktree{Repo: "/p", Path: "/data/worktrees/p-1/a", Branch: "agentdesk/a", Base: "abc"})
	want := Worktree{Repo: "/p", Path: "/data/worktrees/p-1/b", Branch: "agentdesk/b", Base: "def", Project: "/p/sub"}
	w.SetWorktree("s1", want)
	flush(t, s.Store)
	if got, ok, err := s.Worktree(ctx, "s1"); err != nil || !ok || got != want {
		t.Fatalf("Worktree = %+v, %v, %v; want %+v", got, ok, err, want)
	}
	if _, ok, err := s.Worktree(ctx, "plain"); err != nil || ok {
		t.Fatalf("a session without a worktree has one: %v, %v", ok, err)
	}
	w.SetWorktree("plain", want)
	w.DiscardedWorktree("plain")
	flush(t, s.Store)
	if got, ok, err := s.Worktree(ctx, "plain"); err != nil || !ok || !got.Discarded {
		t.Fatalf("a discarded worktree reads %+v, %v, %v; want it marked", got, ok, err)
	}
	if err := s.DeleteSession(ctx, "s1"); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := s.Worktree(ctx, "s1"); err != nil || ok {
		t.Fatalf("a deleted session's worktree is still recorded: %v, %v", ok, err)
	}
}

// TestAWorktreeSessionCountsForItsProject: the recent folders list the person's folder of a
// session in a worktree, not the worktree, and the start form's switch is remembered per
// project: on after a session in a worktree, off after one without.
func TestAWorktreeSessionCountsForItsProject(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	w := s.Writer()
	w.CreateSession(Session{ID: "a", AgentID: "demo", Cwd: "/p"})
	flush(t, s.Store)
	w.CreateSession(Session{ID: "b", AgentID: "demo", Cwd: "/data/worktrees/p-1/s-b"})
	w.SetWorktree("b", Worktree{Repo: "/p", Path: "/data/worktrees/p-1/s-b", Branch: "agentdesk/s-b", Base: "abc", Project: "/p"})
	flush(t, s.Store)
	if got, err := s.RecentFolders(ctx, "", 0); err != nil || len(got) != 1 || got[0] != "/p" {
		t.Fatalf("RecentFolders = %q, %v; want the project once", got, err)
	}
	if on, err := s.WorktreeChosen(ctx, "/p"); err != nil || !on {
		t.Fatalf("WorktreeChosen after a worktree session = %v, %v", on, err)
	}
	w.CreateSession(Session{ID: "c", AgentID: "demo", Cwd: "/p"})
	flush(t, s.Store)
	if on, err := s.WorktreeChosen(ctx, "/p"); err != nil || on {
		t.Fatalf("WorktreeChosen after a plain session = %v, %v", on, err)
	}
	if on, err := s.WorktreeChosen(ctx, "/elsewhere"); err != nil || on {
		t.Fatalf("WorktreeChosen of a new folder = %v, %v", on, err)
	}
}
