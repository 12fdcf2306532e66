//go:build unix

package worktree

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// session makes a worktree of repo as a session would use it, with the manager that made it.
func session(t *testing.T, repo string) (*Manager, Tree) {
	t.Helper()
	m := NewManager(filepath.Join(t.TempDir(), "worktrees"), CLI{})
	tr, err := m.Create(context.Background(), repo, "s-1")
	if err != nil {
		t.Fatal(err)
	}
	return m, tr
}

func read(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// noTemps fails when an Apply left a temporary file anywhere in the tree.
func noTemps(t *testing.T, repo string) {
	t.Helper()
	filepath.WalkDir(repo, func(p string, d os.DirEntry, err error) error {
		if d != nil && strings.HasPrefix(d.Name(), applyTempPrefix) {
			t.Errorf("an Apply left %s", p)
		}
		return nil
	})
}

func TestApplyBringsTheSessionsWorkByteForByteAndNothingElse(t *testing.T) {
	ctx := context.Background()
	repo := personsRepo(t)
	m, tr := session(t, repo)
	// The session commits one change and leaves others uncommitted, untracked, odd names too.
	write(t, filepath.Join(tr.Path, "sub", "lib.go"), "package sub\n\nfunc Lib() {}\n")
	git(t, tr.Path, "commit", "-q", "-am", "lib")
	write(t, filepath.Join(tr.Path, "new", "deep", "x.go"), "package deep\n")
	write(t, filepath.Join(tr.Path, "odd\nname \xff.txt"), "odd\n")
	write(t, filepath.Join(tr.Path, "run.sh"), "#!/bin/sh\n")
	os.Chmod(filepath.Join(tr.Path, "run.sh"), 0o755)
	link(t, "../sub/lib.go", filepath.Join(tr.Path, "new", "lib-link"))
	if err := syscall.Mkfifo(filepath.Join(tr.Path, "fifo"), 0o600); err != nil {
		t.Fatal(err)
	}
	before := repoState(t, repo)

	r, err := m.Review(ctx, tr)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, c := range r.Files {
		paths = append(paths, c.Status+" "+c.Path)
	}
	want := "added new/deep/x.go|added new/lib-link|added odd\nname \xff.txt|added run.sh|modified sub/lib.go"
	if got := strings.Join(paths, "|"); got != want || r.Added != 6 || r.Removed != 0 || !strings.Contains(r.Diff, "+func Lib() {}") {
		t.Fatalf("Review = %q +%d -%d; want %q +6 -0 and the diff", got, r.Added, r.Removed, want)
	}
	res, err := m.Apply(ctx, tr, false)
	if err != nil || res.Applied || res.Conflicts != 0 || len(res.Files) != 5 {
		t.Fatalf("Apply(preview) = %+v, %v; want five files to write", res, err)
	}
	if after := repoState(t, repo); after != before {
		t.Fatalf("a review and a preview changed the person's repository:\n%s\nwas\n%s", after, before)
	}

	res, err = m.Apply(ctx, tr, true)
	if err != nil || !res.Applied || res.Conflicts != 0 {
		t.Fatalf("Apply = %+v, %v", res, err)
	}
	for _, f := range []string{"sub/lib.go", "new/deep/x.go", "odd\nname \xff.txt", "run.sh"} {
		if got, want := read(t, filepath.Join(repo, f)), read(t, filepath.Join(tr.Path, f)); got != want {
			t.Errorf("%q = %q after Apply; want the session's %q", f, got, want)
		}
	}
	if fi, err := os.Stat(filepath.Join(repo, "run.sh")); err != nil || fi.Mode().Perm()&0o100 == 0 {
		t.Errorf("run.sh lost its executable bit: %v %v", fi, err)
	}
	if target, err := os.Readlink(filepath.Join(repo, "new", "lib-link")); err != nil || target != "../sub/lib.go" {
		t.Errorf("the link = %q, %v", target, err)
	}
	if _, err := os.Lstat(filepath.Join(repo, "fifo")); !os.IsNotExist(err) {
		t.Errorf("the session's FIFO reached the person's tree: %v", err)
	}
	// HEAD, branches, the index and the stash are as they were; the person's own changes stay.
	for _, args := range [][]string{{"rev-parse", "HEAD"}, {"for-each-ref", "--format=%(refname) %(objectname)"}, {"stash", "list"}, {"diff", "--cached"}} {
		if !strings.Contains(before, git(t, repo, args...)) {
			t.Errorf("git %v changed with Apply", args)
		}
	}
	if read(t, filepath.Join(repo, "main.go")) != "package main // unstaged\n" || read(t, filepath.Join(repo, "notes.txt")) != "untracked\n" {
		t.Error("Apply changed the person's own uncommitted files")
	}
	noTemps(t, repo)
	// Applying again finds everything in place.
	if res, err := m.Apply(ctx, tr, true); err != nil || res.Conflicts != 0 || res.Files[0].Action != ApplySame {
		t.Fatalf("Apply again = %+v, %v; want every file the same", res, err)
	}
}

// multiline is a text of n numbered lines, with line i replaced by with when i > 0.
func multiline(n, i int, with string) string {
	var b strings.Builder
	for l := 1; l <= n; l++ {
		if l == i {
			b.WriteString(with + "\n")
		} else {
			b.WriteString("line " + string(rune('a'+l)) + "\n")
		}
	}
	return b.String()
}

func TestApplyMergesWhatBothChangedAndRefusesOverlapsWritingNothing(t *testing.T) {
	ctx := context.Background()
	repo := personsRepo(t)
	write(t, filepath.Join(repo, "text.txt"), multiline(12, 0, ""))
	write(t, filepath.Join(repo, "other.txt"), "other\n")
	git(t, repo, "add", "text.txt", "other.txt")
	git(t, repo, "commit", "-q", "-m", "text")
	m, tr := session(t, repo)

	// Apart: the person's line 1 and the session's line 12 merge.
	write(t, filepath.Join(repo, "text.txt"), multiline(12, 1, "mine"))
	write(t, filepath.Join(tr.Path, "text.txt"), multiline(12, 12, "the session's"))
	write(t, filepath.Join(tr.Path, "other.txt"), "the session's other\n")
	res, err := m.Apply(ctx, tr, true)
	if err != nil || !res.Applied || res.Files[1].Action != ApplyMerge {
		t.Fatalf("Apply = %+v, %v; want text.txt merged", res, err)
	}
	if got, want := read(t, filepath.Join(repo, "text.txt")), strings.Replace(multiline(12, 1, "mine"), "line m\n", "the session's\n", 1); got != want {
		t.Fatalf("merged text.txt = %q; want %q", got, want)
	}

	// Overlapping: the same line both ways is a conflict, and nothing is written, other.txt
	// neither.
	write(t, filepath.Join(repo, "text.txt"), multiline(12, 6, "mine"))
	write(t, filepath.Join(repo, "other.txt"), "other\n")
	write(t, filepath.Join(tr.Path, "text.txt"), multiline(12, 6, "the session's"))
	res, err = m.Apply(ctx, tr, true)
	if err != nil || res.Applied || res.Conflicts != 1 {
		t.Fatalf("Apply = %+v, %v; want one conflict and nothing applied", res, err)
	}
	c := res.Files[1]
	if c.Path != "text.txt" || !strings.Contains(c.Conflict, "overlap") || !strings.Contains(c.Markers, "<<<<<<< your tree\nmine\n=======\nthe session's\n>>>>>>> session") {
		t.Fatalf("conflict = %+v; want the overlap with git's markers", c)
	}
	if read(t, filepath.Join(repo, "text.txt")) != multiline(12, 6, "mine") || read(t, filepath.Join(repo, "other.txt")) != "other\n" {
		t.Fatal("a refused Apply wrote files")
	}
	noTemps(t, repo)
}

func TestApplyNeverLeavesThePersonsTree(t *testing.T) {
	ctx := context.Background()
	outside := t.TempDir()
	write(t, filepath.Join(outside, "secret"), "outside\n")
	repo := personsRepo(t)
	// The person's tree: a file hard-linked with one outside, a link to a folder outside, a FIFO.
	if err := os.Link(filepath.Join(outside, "secret"), filepath.Join(repo, "hard")); err != nil {
		t.Fatal(err)
	}
	git(t, repo, "add", "hard")
	git(t, repo, "commit", "-q", "-m", "hard")
	m, tr := session(t, repo)
	link(t, outside, filepath.Join(repo, "docs"))
	if err := syscall.Mkfifo(filepath.Join(repo, "pipe"), 0o600); err != nil {
		t.Fatal(err)
	}
	// The session writes through each, and makes links out.
	write(t, filepath.Join(tr.Path, "docs", "a.md"), "through the link\n")
	write(t, filepath.Join(tr.Path, "pipe"), "into the FIFO\n")
	link(t, "/etc/passwd", filepath.Join(tr.Path, "abs-link"))
	link(t, "../../../escape", filepath.Join(tr.Path, "sub", "rel-link"))
	res, err := m.Apply(ctx, tr, false)
	if err != nil || res.Conflicts != 4 {
		t.Fatalf("Apply = %+v, %v; want four conflicts", res, err)
	}
	words := map[string]string{"docs/a.md": "cannot be read", "pipe": "not a regular file", "abs-link": "outside your tree", "sub/rel-link": "outside your tree"}
	for _, f := range res.Files {
		if !strings.Contains(f.Conflict, words[f.Path]) {
			t.Errorf("%s: conflict %q; want it to say %q", f.Path, f.Conflict, words[f.Path])
		}
	}

	// Without the refused ones, the hard-linked file is replaced, not written through.
	for _, f := range []string{"docs", "pipe", "abs-link", "sub/rel-link"} {
		os.RemoveAll(filepath.Join(tr.Path, f))
	}
	write(t, filepath.Join(tr.Path, "hard"), "the session's\n")
	if res, err := m.Apply(ctx, tr, true); err != nil || !res.Applied {
		t.Fatalf("Apply = %+v, %v", res, err)
	}
	if read(t, filepath.Join(repo, "hard")) != "the session's\n" || read(t, filepath.Join(outside, "secret")) != "outside\n" {
		t.Fatal("Apply wrote through a hard link to a file outside the tree")
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 1 {
		t.Fatalf("Apply wrote outside the tree: %v", entries)
	}
}

func TestApplyRefusesAFileThePersonChangesMeanwhile(t *testing.T) {
	repo := personsRepo(t)
	m, tr := session(t, repo)
	write(t, filepath.Join(tr.Path, "sub", "lib.go"), "package sub // the session's\n")
	write(t, filepath.Join(tr.Path, "sub", "new.go"), "package sub\n")
	afterPrepare = func() { write(t, filepath.Join(repo, "sub", "lib.go"), "package sub // typed meanwhile\n") }
	t.Cleanup(func() { afterPrepare = func() {} })

	res, err := m.Apply(context.Background(), tr, true)
	if err != nil || res.Applied || res.Conflicts != 1 || !strings.Contains(res.Files[0].Conflict, "changed in your tree while") {
		t.Fatalf("Apply = %+v, %v; want the file changed meanwhile refused", res, err)
	}
	if read(t, filepath.Join(repo, "sub", "lib.go")) != "package sub // typed meanwhile\n" {
		t.Fatal("Apply overwrote what the person typed")
	}
	if _, err := os.Lstat(filepath.Join(repo, "sub", "new.go")); !os.IsNotExist(err) {
		t.Fatalf("a refused Apply left sub/new.go: %v", err)
	}
	noTemps(t, repo)
}

func TestCommitOnTheBranch(t *testing.T) {
	ctx := context.Background()
	repo := personsRepo(t)
	m, tr := session(t, repo)
	for _, v := range []string{"GIT_AUTHOR_NAME", "GIT_COMMITTER_NAME"} {
		t.Setenv(v, "a person") // the person's git identity, as their configuration gives it
	}
	for _, v := range []string{"GIT_AUTHOR_EMAIL", "GIT_COMMITTER_EMAIL"} {
		t.Setenv(v, "person@example.com")
	}
	if _, err := m.Commit(ctx, tr, "nothing"); err != ErrNothingToCommit {
		t.Fatalf("Commit of nothing = %v; want ErrNothingToCommit", err)
	}
	write(t, filepath.Join(tr.Path, "added.go"), "package main\n")
	before := git(t, repo, "rev-parse", "HEAD")
	id, err := m.Commit(ctx, tr, "the session's work")
	if err != nil {
		t.Fatal(err)
	}
	if got := git(t, repo, "rev-parse", tr.Branch); strings.TrimSpace(got) != id || git(t, repo, "rev-parse", "HEAD") != before {
		t.Fatalf("the branch is at %s, HEAD at %s; want the commit %s on the branch only", got, git(t, repo, "rev-parse", "HEAD"), id)
	}
	if s, err := m.Status(ctx, tr); err != nil || s.Ahead != 1 || s.Dirty != 0 {
		t.Fatalf("Status = %+v, %v; want one commit ahead, nothing dirty", s, err)
	}
	if !bytes.Contains([]byte(git(t, repo, "show", "--stat", tr.Branch)), []byte("added.go")) {
		t.Fatal("the commit lacks the session's file")
	}
}
