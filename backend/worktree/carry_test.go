//go:build unix

package worktree

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestCarryBringsThePersonsUncommittedWorkAndLeavesTheirsAlone: the worktree gets the person's
// staged change (staged there too), unstaged change and untracked files, links as links; an
// ignored file and a FIFO stay behind; the person's repository, stash included, is as it was.
func TestCarryBringsThePersonsUncommittedWorkAndLeavesTheirsAlone(t *testing.T) {
	ctx := context.Background()
	repo := personsRepo(t)
	write(t, filepath.Join(repo, ".gitignore"), "*.log\n")
	git(t, repo, "add", ".gitignore")
	git(t, repo, "commit", "-q", "-m", "ignore logs")
	write(t, filepath.Join(repo, "README"), "readme, staged again\n") // the commit above took the first
	git(t, repo, "add", "README")
	write(t, filepath.Join(repo, "new", "deep.txt"), "untracked, deep\n")
	write(t, filepath.Join(repo, "build.log"), "ignored\n")
	link(t, "notes.txt", filepath.Join(repo, "notes-link"))
	if err := syscall.Mkfifo(filepath.Join(repo, "pipe"), 0o600); err != nil {
		t.Fatal(err)
	}
	m := NewManager(filepath.Join(t.TempDir(), "worktrees"), CLI{})
	if n, err := m.Uncommitted(ctx, repo); err != nil || n != 5 {
		t.Fatalf("Uncommitted = %d, %v; want README, main.go, notes.txt, new/deep.txt, notes-link\n%s", n, err, git(t, repo, "status", "--porcelain"))
	}
	tr, err := m.Create(ctx, repo, "carry")
	if err != nil {
		t.Fatal(err)
	}
	before := repoState(t, repo)
	if _, err := m.Carry(ctx, tr); err != nil {
		t.Fatal(err)
	}
	for f, want := range map[string]string{"README": "readme, staged again\n", "main.go": "package main // unstaged\n", "notes.txt": "untracked\n", "new/deep.txt": "untracked, deep\n"} {
		if got := read(t, filepath.Join(tr.Path, f)); got != want {
			t.Errorf("%s in the worktree = %q; want %q", f, got, want)
		}
	}
	if staged := git(t, tr.Path, "diff", "--cached", "--name-only"); strings.TrimSpace(staged) != "README" {
		t.Errorf("staged in the worktree: %q; want README, as the person had it", staged)
	}
	if target, err := os.Readlink(filepath.Join(tr.Path, "notes-link")); err != nil || target != "notes.txt" {
		t.Errorf("the link in the worktree = %q, %v", target, err)
	}
	for _, f := range []string{"build.log", "pipe"} {
		if _, err := os.Lstat(filepath.Join(tr.Path, f)); !os.IsNotExist(err) {
			t.Errorf("%s was carried: %v", f, err)
		}
	}
	if after := repoState(t, repo); after != before {
		t.Fatalf("carrying changed the person's repository:\n%s\nwas\n%s", after, before)
	}
}
