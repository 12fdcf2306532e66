package cli

import (
	"bytes"
	"encoding/json"
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

	// --carry brings the person's uncommitted change along; theirs stays.
	errOut.Reset()
	if code := runCLI([]string{"--db", db, "--permissions", "allow", "--cwd", repo, "--worktree", "--carry", "hello"}, strings.NewReader(""), &out, &errOut); code != 0 {
		t.Fatalf("--carry: exit %d: %s", code, errOut.String())
	}
	carried := ""
	for _, l := range strings.Split(errOut.String(), "\n") {
		if p, ok := strings.CutPrefix(l, "agentdesk run: working in "); ok {
			carried, _, _ = strings.Cut(p, ",")
		}
	}
	if b, _ := os.ReadFile(filepath.Join(carried, "main.go")); string(b) != "package main // mine\n" {
		t.Fatalf("--carry: main.go in the worktree %q = %q", carried, b)
	}
	if code := runCLI([]string{"--db", db, "--cwd", repo, "--carry", "hello"}, strings.NewReader(""), &out, &errOut); code != ExitUsage {
		t.Fatalf("--carry without --worktree: exit %d", code)
	}

	errOut.Reset()
	if code := runCLI([]string{"--db", db, "--cwd", t.TempDir(), "--worktree", "hello"}, strings.NewReader(""), &out, &errOut); code != ExitNoStart ||
		!strings.Contains(errOut.String(), "not in a git repository") {
		t.Fatalf("--worktree outside a repository: exit %d: %s", code, errOut.String())
	}
}

// worktreeSession runs one demo turn in a worktree of a new repository and returns the
// repository, the database and the session's worktree as history --json shows it.
func worktreeSession(t *testing.T, db string) (repo, id, tree string) {
	t.Helper()
	t.Setenv("AGENTDESK_DEMO_PACE", "0s")
	repo = t.TempDir()
	gittest.Run(t, repo, "init", "-q", "-b", "main")
	for name, text := range map[string]string{"main.go": "package main\n", "text.txt": "one\ntwo\nthree\n"} {
		if err := os.WriteFile(filepath.Join(repo, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gittest.Run(t, repo, "add", "-A")
	gittest.Run(t, repo, "commit", "-q", "-m", "one")
	var out, errOut bytes.Buffer
	if code := runCLI([]string{"--db", db, "--permissions", "allow", "--cwd", repo, "--worktree", "hello"}, strings.NewReader(""), &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	out.Reset()
	var items []historyItem
	if execute(strings.NewReader(""), &out, &errOut, "history", "--db", db, "--json") != 0 || json.Unmarshal(out.Bytes(), &items) != nil || len(items) == 0 {
		t.Fatalf("history: %s %s", out.String(), errOut.String())
	}
	return repo, items[0].ID, items[0].Cwd
}

// TestApplyAndDiscardAWorktreeSession: apply previews and asks, brings the session's files in
// with --yes and commits nothing; a conflict exits 4 with git's merge shown and writes nothing;
// discard takes the worktree and branch away and leaves the session; delete takes the worktree
// with the session.
func TestApplyAndDiscardAWorktreeSession(t *testing.T) {
	db := filepath.Join(t.TempDir(), "cli.db")
	repo, id, tree := worktreeSession(t, db)
	branches := "* main\n"
	var out, errOut bytes.Buffer
	cli := func(want int, in string, args ...string) string {
		t.Helper()
		out.Reset()
		errOut.Reset()
		if code := execute(strings.NewReader(in), &out, &errOut, append(args, "--db", db)...); code != want {
			t.Fatalf("%q: exit %d, want %d\n%s%s", args, code, want, out.String(), errOut.String())
		}
		return out.String() + errOut.String()
	}
	// The session's work: a new file and a changed line.
	os.WriteFile(filepath.Join(tree, "added.go"), []byte("package main // the session's\n"), 0o644)
	os.WriteFile(filepath.Join(tree, "text.txt"), []byte("one\ntwo, the session's\nthree\n"), 0o644)

	if got := cli(ExitConflict, "n\n", "apply", id[:8]); !strings.Contains(got, "write     added.go") || !strings.Contains(got, "Apply 2 file(s)") {
		t.Fatalf("apply answered no:\n%s", got)
	}
	if _, err := os.Stat(filepath.Join(repo, "added.go")); !os.IsNotExist(err) {
		t.Fatal("apply answered no wrote a file")
	}
	head := gittest.Run(t, repo, "rev-parse", "HEAD")
	if got := cli(ExitOK, "", "apply", id[:8], "--yes"); !strings.Contains(got, "applied 2 file(s)") {
		t.Fatalf("apply --yes:\n%s", got)
	}
	if b, _ := os.ReadFile(filepath.Join(repo, "added.go")); string(b) != "package main // the session's\n" || gittest.Run(t, repo, "rev-parse", "HEAD") != head ||
		gittest.Run(t, repo, "diff", "--cached") != "" {
		t.Fatalf("after apply: added.go %q; HEAD and the index must stay", b)
	}

	// The person changes the same line: a conflict, shown, nothing written.
	os.WriteFile(filepath.Join(repo, "text.txt"), []byte("one\ntwo, mine\nthree\n"), 0o644)
	os.WriteFile(filepath.Join(tree, "added.go"), []byte("package main // again\n"), 0o644)
	got := cli(ExitConflict, "", "apply", id[:8], "--yes")
	if !strings.Contains(got, "conflict  text.txt: you and the session both changed it") || !strings.Contains(got, "<<<<<<< your tree") {
		t.Fatalf("apply of a conflict:\n%s", got)
	}
	if b, _ := os.ReadFile(filepath.Join(repo, "added.go")); string(b) != "package main // the session's\n" {
		t.Fatal("a conflicting apply wrote another file")
	}

	if got := cli(ExitFailed, "n\n", "discard", id[:8]); !strings.Contains(got, "Discard the worktree "+tree) {
		t.Fatalf("discard answered no:\n%s", got)
	}
	cli(ExitOK, "", "discard", id[:8], "--yes")
	if gittest.Run(t, repo, "branch") != branches || strings.Count(gittest.Run(t, repo, "worktree", "list"), "\n") != 1 {
		t.Fatalf("after discard: %s%s", gittest.Run(t, repo, "branch"), gittest.Run(t, repo, "worktree", "list"))
	}
	if got := cli(ExitFailed, "", "apply", id[:8]); !strings.Contains(got, "not started in a worktree") {
		t.Fatalf("apply after discard:\n%s", got)
	}
	cli(ExitOK, "", "show", id[:8]) // the session stays

	// delete takes a session's worktree with it.
	_, id2, tree2 := worktreeSession(t, db)
	if got := cli(ExitOK, "y\n", "delete", id2[:8]); !strings.Contains(got, "with the worktree "+tree2) {
		t.Fatalf("delete of a worktree session:\n%s", got)
	}
	if _, err := os.Stat(tree2); !os.IsNotExist(err) {
		t.Fatalf("delete left the worktree: %v", err)
	}
}

// agentWriting is the script of an agent whose one turn runs shell in a terminal of its
// session (its worktree): what one agent of a comparison does differently from the other.
func agentWriting(t *testing.T, shell string) string {
	t.Helper()
	steps := "[" + handshake + `
	{"expect":"session/prompt"},
	{"call":"terminal/create","params":{"command":"sh","args":["-c",` + strconvQuote(shell) + `]},"want":"term-1"},
	{"call":"terminal/wait_for_exit","params":{"terminalId":"term-1"}},
	{"reply":{"stopReason":"end_turn"}},
	{"expect":"never"}]`
	path := filepath.Join(t.TempDir(), "agent.json")
	if err := os.WriteFile(path, []byte(steps), 0o600); err != nil {
		t.Fatal(err)
	}
	self, _ := os.Executable()
	return "'" + self + "' demo-agent --script " + path
}

func strconvQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestCompareTwoAgentsWithACheck: two scripted agents given one task write differently, each in
// its own worktree; the check passes for one and fails for the other; the JSON says so per
// session; the person's files, HEAD, index and branches are untouched until apply, which brings
// the winner's files byte for byte; the other then conflicts (exit 4) and writes nothing; discard
// leaves git's worktrees and branches as they were.
func TestCompareTwoAgentsWithACheck(t *testing.T) {
	repo := t.TempDir()
	gittest.Run(t, repo, "init", "-q", "-b", "main")
	os.WriteFile(filepath.Join(repo, "notes.txt"), []byte("one\ntwo\n"), 0o644)
	os.WriteFile(filepath.Join(repo, "mine.txt"), []byte("committed\n"), 0o644)
	gittest.Run(t, repo, "add", "-A")
	gittest.Run(t, repo, "commit", "-q", "-m", "one")
	os.WriteFile(filepath.Join(repo, "mine.txt"), []byte("the person's own work\n"), 0o644)
	status, head := gittest.Run(t, repo, "status", "--porcelain"), gittest.Run(t, repo, "rev-parse", "HEAD")
	trees := gittest.Run(t, repo, "worktree", "list") + gittest.Run(t, repo, "branch")
	db := filepath.Join(t.TempDir(), "cli.db")
	winner := agentWriting(t, "printf 'one\\ntwo, the winner\\n' > notes.txt && echo passed > pass.txt")
	loser := agentWriting(t, "printf 'one\\ntwo, the other\\n' > notes.txt")

	var out, errOut bytes.Buffer
	code := execute(strings.NewReader(""), &out, &errOut, "compare", "--db", db, "--cwd", repo, "--agent-cmd", winner, "--agent-cmd", loser,
		"--check", "test -f pass.txt && cat pass.txt", "--output", "json", "fix the notes")
	if code != ExitOK {
		t.Fatalf("compare: exit %d\n%s\n%s", code, out.String(), errOut.String())
	}
	var got struct {
		ID       string `json:"id"`
		Sessions []struct {
			ID, Agent, Worktree, Branch string
			Files, Added, Removed       int
			Check                       *struct {
				Command  string
				ExitCode int
				Output   string
			}
			WallMs int64
		}
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil || len(got.Sessions) != 2 {
		t.Fatalf("compare --output json: %v\n%s", err, out.String())
	}
	w, l := got.Sessions[0], got.Sessions[1]
	if w.Files != 2 || w.Added != 2 || w.Removed != 1 || w.Check == nil || w.Check.ExitCode != 0 || w.Check.Output != "passed\n" ||
		w.Check.Command != "test -f pass.txt && cat pass.txt" || !strings.HasPrefix(w.Branch, "agentdesk/s-") {
		t.Errorf("the winner's row: %+v %+v", w, w.Check)
	}
	if l.Files != 1 || l.Check == nil || l.Check.ExitCode != 1 || l.Worktree == w.Worktree || l.Branch == w.Branch {
		t.Errorf("the other's row: %+v %+v", l, l.Check)
	}
	if b, _ := os.ReadFile(filepath.Join(repo, "notes.txt")); string(b) != "one\ntwo\n" || gittest.Run(t, repo, "status", "--porcelain") != status ||
		gittest.Run(t, repo, "rev-parse", "HEAD") != head || gittest.Run(t, repo, "diff", "--cached") != "" {
		t.Fatalf("the comparison touched the person's tree: notes.txt %q, status %q", b, gittest.Run(t, repo, "status", "--porcelain"))
	}

	// Apply the winner: its files, byte for byte; the person's own work stays.
	if code := execute(strings.NewReader(""), &out, &errOut, "apply", "--db", db, w.ID, "--yes"); code != ExitOK {
		t.Fatalf("apply: exit %d\n%s", code, errOut.String())
	}
	for f, want := range map[string]string{"notes.txt": "one\ntwo, the winner\n", "pass.txt": "passed\n", "mine.txt": "the person's own work\n"} {
		if b, _ := os.ReadFile(filepath.Join(repo, f)); string(b) != want {
			t.Errorf("%s = %q after apply; want %q", f, b, want)
		}
	}
	// The other changed the same line: a conflict, nothing written.
	out.Reset()
	if code := execute(strings.NewReader(""), &out, &errOut, "apply", "--db", db, l.ID, "--yes"); code != ExitConflict ||
		!strings.Contains(out.String(), "conflict  notes.txt") {
		t.Fatalf("apply of the other: exit %d\n%s", code, out.String())
	}
	if b, _ := os.ReadFile(filepath.Join(repo, "notes.txt")); string(b) != "one\ntwo, the winner\n" {
		t.Fatalf("a conflicting apply wrote notes.txt: %q", b)
	}
	for _, id := range []string{w.ID, l.ID} {
		if code := execute(strings.NewReader(""), &out, &errOut, "discard", "--db", db, id, "--yes"); code != ExitOK {
			t.Fatalf("discard: exit %d\n%s", code, errOut.String())
		}
	}
	if got := gittest.Run(t, repo, "worktree", "list") + gittest.Run(t, repo, "branch"); got != trees {
		t.Fatalf("after discard: %s", got)
	}
}
