//go:build unix

package changes

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"agentdesk/backend/acp/schema"
)

func newLedger(t *testing.T, opt Options) *Ledger {
	t.Helper()
	l, err := Open(t.TempDir(), opt)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func write(t *testing.T, root, p, content string) {
	t.Helper()
	full := filepath.Join(root, filepath.FromSlash(p))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func snap(t *testing.T, l *Ledger, root string) Hash {
	t.Helper()
	s, err := l.Snapshot(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	return s.Tree
}

func changeList(t *testing.T, l *Ledger, root string, a, b Hash) []string {
	t.Helper()
	fs, err := l.Changes(root, a, b)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range fs {
		s := f.Change + " " + f.Path
		if f.From != "" {
			s += " <- " + f.From
		}
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

func TestSnapshotsSeeEveryKindOfChange(t *testing.T) {
	root := t.TempDir()
	l := newLedger(t, Options{})
	write(t, root, "keep.txt", "same\n")
	write(t, root, "edit.go", "package a\n\nfunc A() {}\n")
	write(t, root, "gone.txt", "bye\n")
	write(t, root, "old/name.txt", "moving content\n")
	a := snap(t, l, root)

	write(t, root, "edit.go", "package a\n\nfunc A() { B() }\n\nfunc B() {}\n")
	os.Remove(filepath.Join(root, "gone.txt"))
	os.MkdirAll(filepath.Join(root, "new"), 0o755)
	os.Rename(filepath.Join(root, "old/name.txt"), filepath.Join(root, "new/name.txt"))
	write(t, root, "deep/er/added.txt", "hello\n")
	b := snap(t, l, root)

	got := strings.Join(changeList(t, l, root, a, b), "\n")
	want := strings.Join([]string{"added deep/er/added.txt", "deleted gone.txt", "modified edit.go", "renamed new/name.txt <- old/name.txt"}, "\n")
	if got != want {
		t.Fatalf("changes:\n%s\nwant:\n%s", got, want)
	}
	fs, _ := l.Changes(root, a, b)
	for _, f := range fs {
		if f.Path == "edit.go" && (f.Added != 3 || f.Removed != 1) {
			t.Fatalf("edit.go +%d -%d, want +3 -1", f.Added, f.Removed)
		}
	}
	if again := snap(t, l, root); again != b {
		t.Fatalf("an unchanged folder gave a new tree")
	}
}

func TestIgnoredFilesAndGitDirAreLeftAlone(t *testing.T) {
	root := t.TempDir()
	l := newLedger(t, Options{})
	write(t, root, ".gitignore", "*.log\nbuild/\n")
	write(t, root, "sub/.gitignore", "secret.txt\n!keep.log\n")
	write(t, root, ".git/HEAD", "ref: refs/heads/main\n")
	write(t, root, ".git/info/exclude", "local-only\n")
	a := snap(t, l, root)
	write(t, root, "x.log", "noise")
	write(t, root, "build/out.bin", "noise")
	write(t, root, "sub/secret.txt", "noise")
	write(t, root, "sub/keep.log", "kept")
	write(t, root, "local-only", "noise")
	write(t, root, ".git/objects/ab/cd", "theirs")
	b := snap(t, l, root)
	if got := changeList(t, l, root, a, b); strings.Join(got, ",") != "added sub/keep.log" {
		t.Fatalf("changes %v, want only sub/keep.log", got)
	}
}

func TestBigAndBinaryFiles(t *testing.T) {
	root := t.TempDir()
	l := newLedger(t, Options{MaxFile: 1024})
	write(t, root, "img.bin", "\x00\x01\x02")
	a := snap(t, l, root)
	write(t, root, "img.bin", "\x00\x01\x03")
	write(t, root, "huge.dat", strings.Repeat("x", 5000))
	s, err := l.Snapshot(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Notes) != 1 || !strings.Contains(s.Notes[0], "huge.dat") || !strings.Contains(s.Notes[0], "limit") {
		t.Fatalf("notes %q, want one about huge.dat", s.Notes)
	}
	fs, _ := l.Changes(root, a, s.Tree)
	if len(fs) != 2 || !fs[0].TooBig || fs[0].Path != "huge.dat" || !fs[1].Binary {
		t.Fatalf("changes %+v, want huge.dat too big and img.bin binary", fs)
	}
	if _, err := os.Stat(filepath.Join(l.Dir(), "objects")); err != nil {
		t.Fatal(err)
	}
}

func TestOneChangedFileStoresLittle(t *testing.T) {
	root := t.TempDir()
	// A clock an hour ahead: no file is "too fresh to trust", so the stat cache is used.
	l := newLedger(t, Options{Now: func() time.Time { return time.Now().Add(time.Hour) }})
	for i := range 200 {
		write(t, root, filepath.Join("d"+string(rune('a'+i%10)), "f"+strings.Repeat("x", i%7)+string(rune('a'+i/10))+".txt"), strings.Repeat("content ", 500))
	}
	snap(t, l, root)
	write(t, root, "da/changed.txt", "small change\n")
	s, err := l.Snapshot(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	if s.Read != 1 || s.Stored > 4096 {
		t.Fatalf("read %d files, stored %d bytes; want 1 file and a few records", s.Read, s.Stored)
	}
}

func TestRevertRestoresBytesAndStopsOnConflict(t *testing.T) {
	root := t.TempDir()
	l := newLedger(t, Options{})
	bin := "\x00\xffbinary\x01"
	write(t, root, "a.txt", "one\ntwo\nthree\n")
	write(t, root, "b.bin", bin)
	write(t, root, "c.txt", "to be deleted\n")
	start := snap(t, l, root)
	write(t, root, "a.txt", "one\nTWO\nthree\n")
	write(t, root, "b.bin", "changed")
	os.Remove(filepath.Join(root, "c.txt"))
	write(t, root, "d.txt", "added\n")
	end := snap(t, l, root)

	var targets []Target
	fs, _ := l.Changes(root, start, end)
	for _, f := range fs {
		targets = append(targets, Target{Root: root, Path: f.Path, From: start, Expect: end})
	}
	// Someone edits a.txt after the turn: the whole revert stops.
	write(t, root, "a.txt", "user's edit\n")
	plan, err := l.Plan(targets)
	if err != nil {
		t.Fatal(err)
	}
	conflicts := 0
	for _, p := range plan {
		if p.Conflict != "" {
			conflicts++
			if p.Path != "a.txt" {
				t.Fatalf("conflict on %s", p.Path)
			}
		}
	}
	if conflicts != 1 {
		t.Fatalf("plan %+v, want one conflict", plan)
	}
	if _, err := l.Apply(targets); err == nil {
		t.Fatal("Apply went ahead over a conflict")
	}
	if b, _ := os.ReadFile(filepath.Join(root, "a.txt")); string(b) != "user's edit\n" {
		t.Fatalf("the user's edit was overwritten: %q", b)
	}
	write(t, root, "a.txt", "one\nTWO\nthree\n") // back as the turn left it
	done, err := l.Apply(targets)
	if err != nil || len(done) != 4 {
		t.Fatalf("Apply: %v %v", done, err)
	}
	for p, want := range map[string]string{"a.txt": "one\ntwo\nthree\n", "b.bin": bin, "c.txt": "to be deleted\n"} {
		if b, _ := os.ReadFile(filepath.Join(root, p)); !bytes.Equal(b, []byte(want)) {
			t.Fatalf("%s = %q, want %q", p, b, want)
		}
	}
	if _, err := os.Stat(filepath.Join(root, "d.txt")); !os.IsNotExist(err) {
		t.Fatalf("d.txt still there: %v", err)
	}
	if got := changeList(t, l, root, start, snap(t, l, root)); len(got) != 0 {
		t.Fatalf("after the revert the folder differs from the turn's start: %v", got)
	}
}

func TestRevertOneHunk(t *testing.T) {
	before := "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\nm\n"
	after := "a\nB\nc\nd\ne\nf\ng\nh\ni\nj\nk\nL\nm\nn\n"
	hs, err := hunks(before, after)
	if err != nil || len(hs) != 2 {
		t.Fatalf("hunks %+v %v, want 2", hs, err)
	}
	got, err := revertHunk(before, after, 1)
	if err != nil || got != "a\nB\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\nm\n" {
		t.Fatalf("revert hunk 2: %q %v", got, err)
	}
	got, err = revertHunk(before, after, 0)
	if err != nil || got != "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nL\nm\nn\n" {
		t.Fatalf("revert hunk 1: %q %v", got, err)
	}
	if _, err := revertHunk(before, after, 2); err == nil {
		t.Fatal("a hunk that does not exist was reverted")
	}
}

func TestTargetsCannotLeaveTheFolder(t *testing.T) {
	root := t.TempDir()
	l := newLedger(t, Options{})
	s := snap(t, l, root)
	for _, p := range []string{"../x", "/etc/passwd", "a/../../x", ".git/config", "sub/.git/HEAD", ""} {
		if _, err := l.Plan([]Target{{Root: root, Path: p, From: s, Expect: s}}); err == nil {
			t.Errorf("path %q was accepted", p)
		}
	}
	_ = schema.ChangeAdded
}

func TestCollectKeepsWhatTheHistoryNeeds(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	l := newLedger(t, Options{Now: func() time.Time { return time.Now().Add(time.Minute) }})
	// Over inlineMax: kept as objects of their own, which Collect deletes.
	shared, onlyA := strings.Repeat("in both folders\n", 64), strings.Repeat("deleted session's content\n", 64)
	write(t, a, "shared.txt", shared)
	write(t, a, "only-a.txt", onlyA)
	write(t, b, "shared.txt", shared)
	snap(t, l, a)
	tb := snap(t, l, b)
	c, err := l.Collect(context.Background(), []Hash{tb}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if c.Removed != 2 || c.Freed == 0 { // a's tree and the file only a had
		t.Fatalf("collected %+v, want 2 objects removed", c)
	}
	if _, err := l.objs.get(hashOf([]byte(onlyA))); err == nil {
		t.Fatal("content only a deleted session had is still kept")
	}
	if _, err := l.objs.get(hashOf([]byte(shared))); err != nil {
		t.Fatalf("shared content was removed: %v", err)
	}
	if _, err := l.Changes(b, "", tb); err != nil {
		t.Fatalf("the kept snapshot no longer reads: %v", err)
	}
}

// TestOwnFilesAreNeverRecorded: a session folder that holds agentdesk's own files (the history
// file and its -wal, the ledger itself: a session in the home folder, a --db inside the project)
// records none of them and never reports them changed; one an older ledger had recorded stays
// as it was recorded, neither changed nor deleted by a turn, even once it is gone.
func TestOwnFilesAreNeverRecorded(t *testing.T) {
	root := t.TempDir()
	db := filepath.Join(root, "data", "agentdesk.db")
	write(t, root, "main.go", "package main\n")
	write(t, root, "data/agentdesk.db", "history v1")
	write(t, root, "data/agentdesk.db-wal", "wal v1")
	older, err := Open(filepath.Join(t.TempDir(), "ledger"), Options{}) // before Own: it records the history
	if err != nil {
		t.Fatal(err)
	}
	recorded := snap(t, older, root)

	l, err := Open(filepath.Join(root, "data", "ledger"), Options{Own: []string{db, db + "-wal", db + "-shm"}})
	if err != nil {
		t.Fatal(err)
	}
	a := snap(t, l, root)
	if got := changeList(t, l, root, "", a); strings.Join(got, ",") != "added main.go" {
		t.Fatalf("the first snapshot records %v, want main.go only", got)
	}
	write(t, root, "main.go", "package main // changed\n")
	write(t, root, "data/agentdesk.db", "history v2")
	write(t, root, "data/agentdesk.db-shm", "shm")
	b := snap(t, l, root)
	if got := changeList(t, l, root, a, b); strings.Join(got, ",") != "modified main.go" {
		t.Fatalf("changes %v, want main.go only (the history and the ledger's objects are agentdesk's own)", got)
	}

	older.opt.Own = []string{db, db + "-wal", db + "-shm", l.Dir()} // the other ledger is agentdesk's own too
	write(t, root, "data/agentdesk.db", "history v3")
	if err := os.Remove(filepath.Join(root, "data", "agentdesk.db-wal")); err != nil {
		t.Fatal(err)
	}
	c := snap(t, older, root)
	if got := changeList(t, older, root, recorded, c); strings.Join(got, ",") != "modified main.go" {
		t.Fatalf("an older ledger's changes %v, want main.go only (its recorded history file neither changed nor deleted)", got)
	}
}
