package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"agentdesk/backend/worktree/gittest"
)

// TestRunInAWorktree: run --worktree works in a new worktree of the folder's repository, in the
// history's folder, on an agentdesk/ branch, and says so; the person's files, status and
// branch are as they were. A folder outside a repository is refused in words.
func TestRunInAWorktree(t *testing.T) {
	t.Setenv("AGENTDESK_DEMO_PACE", "0s")
	repo := t.TempDir()
	gittest.Run(t, repo, "init", "-q", "-b", "main")
	if err := os.WriteFile(filepath.Join(repo, "main.go"), []byte("package main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gittest.Run(t, repo, "add", "-A")
	gittest.Run(t, repo, "commit", "-q", "-m", "one")
	if err := os.WriteFile(filepath.Join(repo, "main.go"), []byte("package main // mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	status := gittest.Run(t, repo, "status", "--porcelain")
	data := t.TempDir()
	db := filepath.Join(data, "cli.db")
	var out, errOut bytes.Buffer
	if code := runCLI([]string{"--db", db, "--permissions", "allow", "--cwd", repo, "--worktree", "hello"}, strings.NewReader(""), &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	list := gittest.Run(t, repo, "worktree", "list", "--porcelain")
	root, err := filepath.EvalSymlinks(filepath.Join(data, "worktrees"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(list, "worktree "+root+string(filepath.Separator)) || !strings.Contains(list, "branch refs/heads/agentdesk/s-") {
		t.Fatalf("no worktree of the session in the repository:\n%s", list)
	}
	if !strings.Contains(errOut.String(), "working in "+root) || !strings.Contains(errOut.String(), "on branch agentdesk/s-") {
		t.Fatalf("run does not say where it works: %s", errOut.String())
	}
	if got := gittest.Run(t, repo, "status", "--porcelain"); got != status || gittest.Run(t, repo, "branch", "--show-current") != "main\n" {
		t.Fatalf("the person's repository changed: %q", got)
	}
	if b, _ := os.ReadFile(filepath.Join(repo, "main.go")); string(b) != "package main // mine\n" {
		t.Fatalf("the person's file changed: %q", b)
	}

	errOut.Reset()
	if code := runCLI([]string{"--db", db, "--cwd", t.TempDir(), "--worktree", "hello"}, strings.NewReader(""), &out, &errOut); code != ExitNoStart ||
		!strings.Contains(errOut.String(), "not in a git repository") {
		t.Fatalf("--worktree outside a repository: exit %d: %s", code, errOut.String())
	}
}
