package hub

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"agentdesk/backend/acp"
	"agentdesk/backend/changes"
)

// onDisk plays an agent whose turn changes files itself, not through fs/*: it asks a permission
// (the test changes the files on disk meanwhile, as the agent's own tools would), then runs a
// command in a terminal that creates a file.
const onDisk = "[" + handshake + `
	{"expect":"session/prompt"},
	{"call":"session/request_permission","params":{"toolCall":{"toolCallId":"t1","title":"edit files","kind":"edit"},
		"options":[{"optionId":"ok","name":"Allow","kind":"allow_once"}]}},
	{"call":"terminal/create","params":{"command":"sh","args":["-c","printf 'made by a command' > made.txt"]},"want":"term-1"},
	{"call":"terminal/wait_for_exit","params":{"terminalId":"term-1"}},
	{"reply":{"stopReason":"end_turn"}},
	{"expect":"never"}]`

// treeDigest is every file beneath dir with its mode and content hash: what must not change.
func treeDigest(t *testing.T, dir string) string {
	t.Helper()
	var lines []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		line := fmt.Sprintf("%s %v", p, info.Mode())
		if d.Type().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			line += fmt.Sprintf(" %x", sha256.Sum256(b))
		}
		lines = append(lines, line)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// ledgerHub is a hub over a new history in base, with a change ledger, whose agent "a" plays
// script.
func ledgerHub(t *testing.T, base, script string) *Hub {
	t.Helper()
	st := openTestStore(t, filepath.Join(base, "history.db"))
	t.Cleanup(func() { st.Close() })
	h := New(st, agentList{scriptAgent(t, base, "a", script)}, t.Logf)
	l, err := changes.Open(filepath.Join(base, "ledger"), changes.Options{})
	if err != nil {
		t.Fatal(err)
	}
	h.SetLedger(l)
	return h
}

// startIdle starts agent "a" in proj and waits until its session is idle; the session is closed
// when the test ends. The channel has every event of the session.
func startIdle(t *testing.T, h *Hub, proj string) (*acp.Session, chan acp.Event) {
	t.Helper()
	evs := make(chan acp.Event, 256)
	s, _, err := h.Start(StartRequest{AgentID: "a", Cwd: proj}, acp.EmitterFunc(func(ev acp.Event) { evs <- ev }))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close(context.Background(), s.ID()) })
	waitFor(t, evs, func(ev acp.Event) bool { return ev.Kind == acp.EventState && ev.State == acp.StateIdle })
	return s, evs
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestLedgerRecordsAndRevertsWhatATurnDidOnDisk: whatever wrote the files, the turn's receipt
// lists each change (ignored files left out, the binary file and the file over the cap marked),
// a revert over a later edit stops with a conflict, the revert restores every byte, its undo
// puts the turn's work back, and the user's own .git is never touched.
func TestLedgerRecordsAndRevertsWhatATurnDidOnDisk(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	base := t.TempDir()
	proj := filepath.Join(base, "proj")
	os.MkdirAll(proj, 0o755)
	original := map[string]string{
		"keep.txt": "untouched\n", "edit.go": "package p\n\nfunc A() {}\n", "gone.txt": "to be deleted\n",
		"old.txt": "renamed content\n", "image.bin": "\x00\x01\x02\xff", ".gitignore": "*.log\n", "x.log": "ignored\n",
	}
	for p, c := range original {
		os.WriteFile(filepath.Join(proj, p), []byte(c), 0o644)
	}
	git(t, proj, "init", "-q")
	git(t, proj, "add", ".")
	git(t, proj, "commit", "-qm", "start")
	gitBefore := treeDigest(t, filepath.Join(proj, ".git"))

	h := ledgerHub(t, base, onDisk)
	s, evs := startIdle(t, h, proj)
	if _, err := s.Prompt("change things"); err != nil {
		t.Fatal(err)
	}
	perm := waitFor(t, evs, func(ev acp.Event) bool { return ev.Kind == acp.EventPermission })
	// The agent's own tools at work: nothing goes through fs/*.
	os.WriteFile(filepath.Join(proj, "edit.go"), []byte("package p\n\nfunc A() { B() }\n\nfunc B() {}\n"), 0o644)
	os.Remove(filepath.Join(proj, "gone.txt"))
	os.Rename(filepath.Join(proj, "old.txt"), filepath.Join(proj, "new.txt"))
	os.WriteFile(filepath.Join(proj, "image.bin"), []byte("\x00\x09"), 0o644)
	os.WriteFile(filepath.Join(proj, "x.log"), []byte("ignored, changed\n"), 0o644)
	big, _ := os.Create(filepath.Join(proj, "big.dat"))
	big.Truncate(100 << 20) // 100 MB, over the 16 MB cap
	big.Close()
	if err := s.AnswerPermission(perm.RequestID, "ok"); err != nil {
		t.Fatal(err)
	}
	end := waitFor(t, evs, func(ev acp.Event) bool { return ev.Kind == acp.EventTurnEnd })
	if end.Receipt == nil || end.Receipt.Changes == nil {
		t.Fatalf("turn end %+v has no changes", end)
	}
	var got []string
	for _, f := range end.Receipt.Changes.Files {
		line := f.Change + " " + f.Path
		if f.From != "" {
			line += " <- " + f.From
		}
		if f.Binary {
			line += " (binary)"
		}
		if f.TooBig {
			line += " (too big)"
		}
		got = append(got, line)
	}
	want := []string{"added big.dat (too big)", "modified edit.go", "deleted gone.txt", "modified image.bin (binary)", "added made.txt", "renamed new.txt <- old.txt"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("the receipt lists\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if notes := strings.Join(end.Receipt.Changes.Notes, "\n"); !strings.Contains(notes, "big.dat") {
		t.Fatalf("notes %q do not say big.dat was too big to keep", notes)
	}
	waitFor(t, evs, func(ev acp.Event) bool { return ev.Kind == acp.EventState && ev.State == acp.StateIdle })

	ctx := context.Background()
	req := changes.RevertRequest{SessionID: s.ID(), Turn: 1, Scope: changes.ScopeTurn}
	// The person edits a file after the turn: the revert stops and writes nothing.
	os.WriteFile(filepath.Join(proj, "edit.go"), []byte("the person's edit\n"), 0o644)
	plan, err := h.Revert(ctx, req, true)
	if err != nil || plan.Done || plan.Conflicts != 1 {
		t.Fatalf("revert over a later edit: %+v %v, want one conflict and nothing done", plan, err)
	}
	if readFile(t, filepath.Join(proj, "made.txt")) != "made by a command" || readFile(t, filepath.Join(proj, "edit.go")) != "the person's edit\n" {
		t.Fatal("a conflicted revert changed files")
	}
	os.WriteFile(filepath.Join(proj, "edit.go"), []byte("package p\n\nfunc A() { B() }\n\nfunc B() {}\n"), 0o644)
	plan, err = h.Revert(ctx, req, true)
	if err != nil || !plan.Done || plan.Conflicts != 0 {
		t.Fatalf("revert: %+v %v", plan, err)
	}
	for p, c := range original {
		if p == "x.log" {
			continue
		}
		if got := readFile(t, filepath.Join(proj, p)); !bytes.Equal([]byte(got), []byte(c)) {
			t.Errorf("%s = %q after the revert, want %q", p, got, c)
		}
	}
	for _, p := range []string{"new.txt", "made.txt", "big.dat"} {
		if _, err := os.Stat(filepath.Join(proj, p)); !os.IsNotExist(err) {
			t.Errorf("%s is still there after the revert (%v)", p, err)
		}
	}
	if readFile(t, filepath.Join(proj, "x.log")) != "ignored, changed\n" {
		t.Error("the revert touched an ignored file")
	}
	// The revert is recorded, and its undo puts the turn's work back.
	view, err := h.SessionChanges(ctx, s.ID())
	if err != nil || len(view.Turns) != 1 || len(view.Turns[0].Reverts) != 1 || len(view.Turns[0].Changes.Files) != 6 {
		t.Fatalf("session changes %+v %v", view, err)
	}
	undo, err := h.UndoRevert(ctx, s.ID(), plan.RevertID)
	if err != nil || !undo.Done {
		t.Fatalf("undo: %+v %v", undo, err)
	}
	if readFile(t, filepath.Join(proj, "made.txt")) != "made by a command" || readFile(t, filepath.Join(proj, "new.txt")) != "renamed content\n" {
		t.Fatal("the undo did not put the turn's files back")
	}
	if _, err := os.Stat(filepath.Join(proj, "old.txt")); !os.IsNotExist(err) {
		t.Errorf("old.txt came back with the undo (%v)", err)
	}
	if gitAfter := treeDigest(t, filepath.Join(proj, ".git")); gitAfter != gitBefore {
		t.Fatalf("the user's .git changed:\nbefore\n%s\nafter\n%s", gitBefore, gitAfter)
	}
}
