package worktree

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"agentdesk/backend/worktree/gittest"
)

// git runs the person's git in dir, for the tests' set-up and checks (not through CLI).
func git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	return gittest.Run(t, dir, args...)
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// personsRepo makes a repository as a person leaves it mid-work: two commits on main, another
// branch, a stash, a staged change, an unstaged one and an untracked file.
func personsRepo(t *testing.T) string {
	t.Helper()
	repo := filepath.Join(t.TempDir(), "project")
	git(t, filepath.Dir(repo), "init", "-q", "-b", "main", repo)
	write(t, filepath.Join(repo, "main.go"), "package main\n")
	write(t, filepath.Join(repo, "sub", "lib.go"), "package sub\n")
	git(t, repo, "add", "-A")
	git(t, repo, "commit", "-q", "-m", "one")
	write(t, filepath.Join(repo, "README"), "readme\n")
	git(t, repo, "add", "README")
	git(t, repo, "commit", "-q", "-m", "two")
	git(t, repo, "branch", "feature")
	write(t, filepath.Join(repo, "main.go"), "package main // stashed\n")
	git(t, repo, "stash", "-q")
	write(t, filepath.Join(repo, "README"), "readme, staged\n")
	git(t, repo, "add", "README")
	write(t, filepath.Join(repo, "main.go"), "package main // unstaged\n")
	write(t, filepath.Join(repo, "notes.txt"), "untracked\n")
	return repo
}

// repoState is what the person sees of their repository: HEAD, branches, worktrees, stash, index,
// status and the bytes of the files they changed.
func repoState(t *testing.T, repo string) string {
	t.Helper()
	var b strings.Builder
	for _, args := range [][]string{
		{"rev-parse", "HEAD"}, {"symbolic-ref", "HEAD"}, {"for-each-ref", "--format=%(refname) %(objectname)"}, {"worktree", "list", "--porcelain"},
		{"stash", "list"}, {"diff", "--cached"}, {"status", "--porcelain=v1", "--untracked-files=all"},
	} {
		b.WriteString(git(t, repo, args...))
	}
	for _, f := range []string{"main.go", "README", "notes.txt"} {
		data, err := os.ReadFile(filepath.Join(repo, f))
		if err != nil {
			t.Fatal(err)
		}
		b.Write(data)
	}
	return b.String()
}

func TestCreateAndDiscardLeaveThePersonsRepositoryAsItWas(t *testing.T) {
	ctx := context.Background()
	repo := personsRepo(t)
	before := repoState(t, repo)
	root := filepath.Join(t.TempDir(), "worktrees")
	m := NewManager(root, CLI{})

	tr, err := m.Create(ctx, filepath.Join(repo, "sub"), "fix-tests")
	if err != nil {
		t.Fatal(err)
	}
	head := strings.TrimSpace(git(t, repo, "rev-parse", "HEAD"))
	if tr.Base != head || tr.Branch != "agentdesk/fix-tests" || !strings.HasPrefix(tr.Path, root+string(filepath.Separator)) ||
		tr.Cwd != filepath.Join(tr.Path, "sub") {
		t.Fatalf("Create = %+v; want base %s, its branch, a folder under %s and the project's subfolder in it", tr, head, root)
	}
	// The worktree holds the commit, not the person's uncommitted work.
	if data, err := os.ReadFile(filepath.Join(tr.Path, "main.go")); err != nil || string(data) != "package main\n" {
		t.Fatalf("main.go in the worktree = %q, %v; want the committed text", data, err)
	}
	if _, err := os.Stat(filepath.Join(tr.Path, "notes.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the person's untracked file is in the worktree: %v", err)
	}
	if _, err := os.Stat(filepath.Join(tr.Cwd, "lib.go")); err != nil {
		t.Fatal(err)
	}
	// The only additions: the worktree's entry and its branch.
	after := repoState(t, repo)
	if !strings.Contains(after, tr.Path) || !strings.Contains(after, "agentdesk/fix-tests") {
		t.Fatalf("the repository does not list the worktree and its branch:\n%s", after)
	}
	for _, line := range strings.Split(before, "\n") {
		if !strings.Contains(after, line) {
			t.Fatalf("Create changed the person's repository: %q is gone", line)
		}
	}

	// The agent works and commits in its worktree.
	write(t, filepath.Join(tr.Cwd, "lib.go"), "package sub // agent\n")
	write(t, filepath.Join(tr.Path, "new.go"), "package main\n")
	st, err := m.Status(ctx, tr)
	if err != nil || st != (Status{Dirty: 2}) {
		t.Fatalf("Status = %+v, %v; want 2 dirty files", st, err)
	}
	git(t, tr.Path, "add", "-A")
	git(t, tr.Path, "commit", "-q", "-m", "agent")
	mid := repoState(t, repo)
	git(t, repo, "commit", "-q", "-m", "the person's own") // the staged README
	if st, err := m.Status(ctx, tr); err != nil || st != (Status{Ahead: 1, Behind: 1}) {
		t.Fatalf("Status = %+v, %v; want one ahead and one behind", st, err)
	}
	git(t, repo, "reset", "-q", "--soft", "HEAD~1") // back to the person's state
	if got := repoState(t, repo); got != mid {
		t.Fatalf("the test's own reset left the repository changed:\n%s\nwant\n%s", got, mid)
	}

	if err := m.Discard(ctx, tr); err != nil {
		t.Fatal(err)
	}
	if got := repoState(t, repo); got != before {
		t.Fatalf("after Discard the repository is\n%s\nwant as before Create\n%s", got, before)
	}
	if _, err := os.Stat(tr.Path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the worktree's folder is left: %v", err)
	}
}

// TestCreateRunsNoHookOfTheRepository: the repository's hooks (here a post-checkout hook, which
// git worktree add runs) and its fsmonitor command never run for agentdesk's own git work.
func TestCreateRunsNoHookOfTheRepository(t *testing.T) {
	ctx := context.Background()
	repo := personsRepo(t)
	ran := filepath.Join(t.TempDir(), "ran")
	hook := "#!/bin/sh\necho hook >> " + ran + "\n"
	write(t, filepath.Join(repo, ".git", "hooks", "post-checkout"), hook)
	if err := os.Chmod(filepath.Join(repo, ".git", "hooks", "post-checkout"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(repo, "monitor.sh"), hook)
	if err := os.Chmod(filepath.Join(repo, "monitor.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	git(t, repo, "config", "core.fsmonitor", filepath.Join(repo, "monitor.sh"))
	m := NewManager(filepath.Join(t.TempDir(), "worktrees"), CLI{})
	tr, err := m.Create(ctx, repo, "hooks")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Status(ctx, tr); err != nil {
		t.Fatal(err)
	}
	if err := m.Discard(ctx, tr); err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile(ran); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a hook of the repository ran: %q, %v", data, err)
	}
}

func TestCreateRefusesBadNamesAndFoldersWithoutHistory(t *testing.T) {
	ctx := context.Background()
	repo := personsRepo(t)
	m := NewManager(filepath.Join(t.TempDir(), "worktrees"), CLI{})
	for _, name := range []string{"", "../up", "a/b", "Upper", "new\nline", "-flag", "~home", "\xff", strings.Repeat("a", 41)} {
		if _, err := m.Create(ctx, repo, name); !errors.Is(err, ErrBadName) {
			t.Errorf("Create(%q) = %v, want ErrBadName", name, err)
		}
	}
	if _, err := m.Create(ctx, t.TempDir(), "plain"); !errors.Is(err, ErrNotRepository) {
		t.Errorf("Create in a plain folder = %v, want ErrNotRepository", err)
	}
	empty := t.TempDir()
	git(t, empty, "init", "-q")
	if _, err := m.Create(ctx, empty, "empty"); !errors.Is(err, ErrNoCommits) {
		t.Errorf("Create in a repository without commits = %v, want ErrNoCommits", err)
	}
	if _, err := m.Create(ctx, repo, "twice"); err != nil {
		t.Fatal(err)
	}
	var ge *GitError
	if _, err := m.Create(ctx, repo, "twice"); !errors.As(err, &ge) || !strings.Contains(err.Error(), "twice") {
		t.Errorf("a second worktree of one name = %v, want git's refusal naming it", err)
	}
}

// TestDiscardTouchesOnlyItsOwn: a Tree that is not the Manager's (a folder elsewhere, the
// person's own branch) is refused, and nothing is removed.
func TestDiscardTouchesOnlyItsOwn(t *testing.T) {
	ctx := context.Background()
	repo := personsRepo(t)
	root := filepath.Join(t.TempDir(), "worktrees")
	m := NewManager(root, CLI{})
	tr, err := m.Create(ctx, repo, "mine")
	if err != nil {
		t.Fatal(err)
	}
	before := repoState(t, repo)
	for _, bad := range []Tree{
		{Repo: repo, Path: repo, Branch: tr.Branch},
		{Repo: repo, Path: filepath.Join(root, "..", "elsewhere", "mine"), Branch: tr.Branch},
		{Repo: repo, Path: tr.Path, Branch: "main"},
		{Repo: repo, Path: tr.Path, Branch: "agentdesk/../main"},
		{Repo: repo, Path: root, Branch: tr.Branch},
	} {
		if err := m.Discard(ctx, bad); !errors.Is(err, ErrNotOurs) {
			t.Errorf("Discard(%+v) = %v, want ErrNotOurs", bad, err)
		}
	}
	if got := repoState(t, repo); got != before {
		t.Fatalf("a refused Discard changed the repository:\n%s", got)
	}
	if _, err := os.Stat(tr.Path); err != nil {
		t.Fatalf("a refused Discard removed the worktree: %v", err)
	}
	// A worktree whose folder went is pruned, its branch deleted.
	if err := os.RemoveAll(tr.Path); err != nil {
		t.Fatal(err)
	}
	if err := m.Discard(ctx, tr); err != nil {
		t.Fatal(err)
	}
	if out := git(t, repo, "branch", "--list", "agentdesk/*"); out != "" {
		t.Fatalf("branches left: %q", out)
	}
}

// TestDiscardNeverFollowsALink: links never lead Discard out of the worktree. A link put in
// place of the worktree's folder (an agent may write in agentdesk's data folder too) is removed,
// not emptied through, as git worktree remove --force would; links the agent left inside the
// worktree, to a folder and to a file, go without their targets. The record and branch go too.
func TestDiscardNeverFollowsALink(t *testing.T) {
	for name, plant := range map[string]func(t *testing.T, repo, victim string, tr Tree){
		"in place of the folder": func(t *testing.T, repo, victim string, tr Tree) {
			write(t, filepath.Join(victim, ".git"), "gitdir: "+filepath.Join(repo, ".git", "worktrees", filepath.Base(tr.Path))+"\n")
			if err := os.RemoveAll(tr.Path); err != nil {
				t.Fatal(err)
			}
			link(t, victim, tr.Path)
		},
		"inside the worktree": func(t *testing.T, _, victim string, tr Tree) {
			link(t, victim, filepath.Join(tr.Path, "dir-link"))
			link(t, filepath.Join(victim, "keep.txt"), filepath.Join(tr.Path, "file-link"))
		},
	} {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			repo := personsRepo(t)
			m := NewManager(filepath.Join(t.TempDir(), "worktrees"), CLI{})
			tr, err := m.Create(ctx, repo, "links")
			if err != nil {
				t.Fatal(err)
			}
			victim := t.TempDir()
			write(t, filepath.Join(victim, "keep.txt"), "precious\n")
			plant(t, repo, victim, tr)
			if err := m.Discard(ctx, tr); err != nil {
				t.Fatal(err)
			}
			if data, err := os.ReadFile(filepath.Join(victim, "keep.txt")); err != nil || string(data) != "precious\n" {
				t.Fatalf("a link's target lost its file: %q, %v", data, err)
			}
			if list := git(t, repo, "worktree", "list"); strings.Contains(list, tr.Path) || git(t, repo, "branch", "--list", tr.Branch) != "" {
				t.Fatalf("the worktree's record or branch is left:\n%s", list)
			}
			if _, err := os.Lstat(tr.Path); !errors.Is(err, os.ErrNotExist) {
				t.Fatalf("the worktree's folder or the link in its place is left: %v", err)
			}
		})
	}
}

func link(t *testing.T, target, name string) {
	t.Helper()
	if err := os.Symlink(target, name); err != nil {
		t.Fatal(err)
	}
}
