package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"agentdesk/backend/worktree/gittest"
)

// newRepo makes a repository with one commit, for a demo session of an app with a history of
// its own.
func newRepo(t *testing.T) string {
	t.Helper()
	t.Setenv("AGENTDESK_DB", t.TempDir()+"/history.db")
	t.Setenv("AGENTDESK_DEMO_PACE", "0s")
	repo := t.TempDir()
	gittest.Run(t, repo, "init", "-q", "-b", "main")
	os.WriteFile(filepath.Join(repo, "main.go"), []byte("package main\n"), 0o644)
	gittest.Run(t, repo, "add", "-A")
	gittest.Run(t, repo, "commit", "-q", "-m", "one")
	return repo
}

// TestAWorktreeSessionFromTheWindow: the start form's switch is off and possible in a new
// repository, refused in words outside one, and remembered on after a start in a worktree;
// the session's worktree shows its branch and status, its changes preview and apply into the
// person's files, and discard closes the session, removes the worktree and marks it so.
func TestAWorktreeSessionFromTheWindow(t *testing.T) {
	repo := newRepo(t)
	a, rec := newTestApp(t)
	defer a.shutdown(context.Background())

	if c := a.sessions.ChooseWorktree(repo); !c.Possible || c.Chosen {
		t.Fatalf("ChooseWorktree(new repository) = %+v; want possible, off", c)
	}
	if c := a.sessions.ChooseWorktree(t.TempDir()); c.Possible || !strings.Contains(c.Why, "not in a git repository") {
		t.Fatalf("ChooseWorktree(plain folder) = %+v; want refused in words", c)
	}
	info, _ := startAndWait(t, rec, func() (SessionInfo, error) { return a.sessions.StartSession("demo", repo, nil, true, false) })
	if info.Worktree == nil || !strings.HasPrefix(info.Worktree.Branch, "agentdesk/s-") || info.Cwd == repo {
		t.Fatalf("StartSession(worktree) = %+v", info)
	}
	if c := a.sessions.ChooseWorktree(repo); !c.Chosen {
		t.Fatalf("the switch is not remembered: %+v", c)
	}
	if dirs, _ := a.sessions.RecentFolders(""); len(dirs) == 0 || dirs[0] != repo {
		t.Fatalf("RecentFolders = %q; want the project, not the worktree", dirs)
	}
	if items, err := a.history.ListHistory(""); err != nil || len(items) != 1 || items[0].Cwd != repo {
		t.Fatalf("ListHistory = %+v, %v; want the project as the session's folder", items, err)
	}

	os.WriteFile(filepath.Join(info.Cwd, "added.go"), []byte("package main // the session's\n"), 0o644)
	v, err := a.history.Worktree(info.SessionID)
	if err != nil || v == nil || v.Branch != info.Worktree.Branch || v.Dirty != 1 {
		t.Fatalf("Worktree = %+v, %v; want its branch and one changed file", v, err)
	}
	if p, err := a.history.PreviewApply(info.SessionID); err != nil || len(p.Files) != 1 || p.Applied {
		t.Fatalf("PreviewApply = %+v, %v", p, err)
	}
	if r, err := a.history.ApplyWorktree(info.SessionID); err != nil || !r.Applied {
		t.Fatalf("ApplyWorktree = %+v, %v", r, err)
	}
	if b, _ := os.ReadFile(filepath.Join(repo, "added.go")); string(b) != "package main // the session's\n" {
		t.Fatalf("the applied file = %q", b)
	}
	if err := a.history.DiscardWorktree(info.SessionID); err != nil {
		t.Fatal(err)
	}
	if live := a.sessions.ListLive(); len(live) != 0 {
		t.Fatal("the session is still live after its worktree was discarded")
	}
	if v, err := a.history.Worktree(info.SessionID); err != nil || v == nil || !v.Discarded {
		t.Fatalf("Worktree after discard = %+v, %v; want it marked discarded", v, err)
	}
	if _, err := os.Stat(info.Worktree.Path); !os.IsNotExist(err) {
		t.Fatalf("the worktree is still there: %v", err)
	}
	if _, err := a.history.ApplyWorktree(info.SessionID); err == nil || !strings.Contains(err.Error(), "worktree was discarded") {
		t.Fatalf("apply after discard: %v", err)
	}
}

// TestDeletingAWorktreeSessionTakesItsWorktree: the window's delete of a saved session in a
// worktree removes the worktree and its branch with it.
func TestDeletingAWorktreeSessionTakesItsWorktree(t *testing.T) {
	repo := newRepo(t)
	a, rec := newTestApp(t)
	defer a.shutdown(context.Background())
	info, _ := startAndWait(t, rec, func() (SessionInfo, error) { return a.sessions.StartSession("demo", repo, nil, true, false) })
	if err := a.sessions.CloseSession(info.SessionID); err != nil {
		t.Fatal(err)
	}
	if err := a.history.DeleteHistory(info.SessionID); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(info.Worktree.Path); !os.IsNotExist(err) {
		t.Fatalf("the worktree outlived its deleted session: %v", err)
	}
	if branches := gittest.Run(t, repo, "branch"); branches != "* main\n" {
		t.Fatalf("branches after the delete: %q", branches)
	}
}
