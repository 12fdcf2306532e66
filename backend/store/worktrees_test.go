package store

import (
	"context"
	"testing"
)

// TestAWorktreeIsKeptWithItsSessionAndGoesWithIt: a session's worktree reads back as recorded,
// a second record replaces the first, a session without one has none, a forgotten (discarded)
// one is gone while its session stays, and deleting the session deletes its record.
func TestAWorktreeIsKeptWithItsSessionAndGoesWithIt(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	w := s.Writer()
	w.CreateSession(Session{ID: "s1", AgentID: "demo"})
	w.CreateSession(Session{ID: "plain", AgentID: "demo"})
	w.SetWorktree("s1", Worktree{Repo: "/p", Path: "/data/worktrees/p-1/a", Branch: "agentdesk/a", Base: "abc"})
	want := Worktree{Repo: "/p", Path: "/data/worktrees/p-1/b", Branch: "agentdesk/b", Base: "def"}
	w.SetWorktree("s1", want)
	flush(t, s.Store)
	if got, ok, err := s.Worktree(ctx, "s1"); err != nil || !ok || got != want {
		t.Fatalf("Worktree = %+v, %v, %v; want %+v", got, ok, err, want)
	}
	if _, ok, err := s.Worktree(ctx, "plain"); err != nil || ok {
		t.Fatalf("a session without a worktree has one: %v, %v", ok, err)
	}
	w.SetWorktree("plain", want)
	w.ForgetWorktree("plain")
	flush(t, s.Store)
	if _, ok, err := s.Worktree(ctx, "plain"); err != nil || ok {
		t.Fatalf("a forgotten worktree is still recorded: %v, %v", ok, err)
	}
	if err := s.DeleteSession(ctx, "s1"); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := s.Worktree(ctx, "s1"); err != nil || ok {
		t.Fatalf("a deleted session's worktree is still recorded: %v, %v", ok, err)
	}
}
