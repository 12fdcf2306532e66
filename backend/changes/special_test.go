//go:build unix

package changes

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// snapOrFail takes a snapshot of root with ctx, failing the test if it has not returned after a
// bound only a hung snapshot reaches (the old snapshot blocked in open(2) for ever).
func snapOrFail(t *testing.T, l *Ledger, ctx context.Context, root string) (Snap, error) {
	t.Helper()
	type result struct {
		s   Snap
		err error
	}
	done := make(chan result, 1)
	go func() {
		s, err := l.Snapshot(ctx, root)
		done <- result{s, err}
	}()
	select {
	case r := <-done:
		return r.s, r.err
	case <-time.After(20 * time.Second):
		t.Fatal("the snapshot hung")
		return Snap{}, nil
	}
}

func mkfifo(t *testing.T, p string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := unix.Mkfifo(p, 0o644); err != nil {
		t.Fatal(err)
	}
}

func hasNote(s Snap, parts ...string) bool {
	for _, n := range s.Notes {
		all := true
		for _, p := range parts {
			all = all && strings.Contains(n, p)
		}
		if all {
			return true
		}
	}
	return false
}

// snapNoting snapshots root and fails unless every one of notes (the parts of one note) is among
// the snapshot's notes, and what it records is want (changeList, joined by ",").
func snapNoting(t *testing.T, l *Ledger, root, want string, notes ...[]string) {
	t.Helper()
	s, err := snapOrFail(t, l, context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range notes {
		if !hasNote(s, n...) {
			t.Fatalf("notes %q, want one that says %q", s.Notes, n)
		}
	}
	if got := changeList(t, l, root, "", s.Tree); strings.Join(got, ",") != want {
		t.Fatalf("recorded %v, want %s", got, want)
	}
}

// TestSnapshotListsFIFOsAndSocketsAsNotRecorded: a FIFO and a socket in the folder are named in
// a note and not recorded; they are never opened (a FIFO's open would block).
func TestSnapshotListsFIFOsAndSocketsAsNotRecorded(t *testing.T) {
	root := t.TempDir()
	l := newLedger(t, Options{})
	write(t, root, "a.txt", "a\n")
	mkfifo(t, filepath.Join(root, "sub", "pipe"))
	sock := filepath.Join(root, "sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	snapNoting(t, l, root, "added a.txt", []string{"sub/pipe is a FIFO", "not recorded"}, []string{"sock is a socket", "not recorded"})
}

// TestSnapshotFIFOIgnoreFiles: a FIFO at .git/info/exclude or at a .gitignore does not hang the
// snapshot: a note names it, and the rest of the folder is recorded as usual.
func TestSnapshotFIFOIgnoreFiles(t *testing.T) {
	root := t.TempDir()
	l := newLedger(t, Options{})
	write(t, root, ".git/HEAD", "ref: refs/heads/main\n")
	mkfifo(t, filepath.Join(root, ".git", "info", "exclude"))
	mkfifo(t, filepath.Join(root, "sub", ".gitignore"))
	write(t, root, ".gitignore", "*.log\n")
	write(t, root, "sub/a.txt", "a\n")
	write(t, root, "x.log", "ignored\n")
	snapNoting(t, l, root, "added .gitignore,added sub/a.txt", []string{".git/info/exclude is a FIFO", "not read"}, []string{"sub/.gitignore is a FIFO", "not read"})
}

// TestSnapshotFileSwappedForFIFO: a file that becomes a FIFO after its folder was listed, or
// between its stat and its open, is refused on the open descriptor, never read: the snapshot
// ends and names it, and records no file there.
func TestSnapshotFileSwappedForFIFO(t *testing.T) {
	for _, step := range []string{hookListed, hookOpen} {
		t.Run(step, func(t *testing.T) {
			root := t.TempDir()
			l := newLedger(t, Options{})
			write(t, root, "a.txt", "before\n")
			first := snap(t, l, root)
			write(t, root, "a.txt", "changed, then swapped\n")
			l.hook = func(s, rel string) {
				if s == step && (rel == "." || rel == "a.txt") {
					os.Remove(filepath.Join(root, "a.txt"))
					mkfifo(t, filepath.Join(root, "a.txt"))
				}
			}
			s, err := snapOrFail(t, l, context.Background(), root)
			if err != nil {
				t.Fatal(err)
			}
			if !hasNote(s, "a.txt is a FIFO") {
				t.Fatalf("notes %q, want a.txt named as a FIFO", s.Notes)
			}
			// The file is gone, and what took its name is not recorded.
			if got := changeList(t, l, root, first, s.Tree); strings.Join(got, ",") != "deleted a.txt" {
				t.Fatalf("changes %v, want a.txt deleted", got)
			}
		})
	}
}

// TestSnapshotOverBudgetIsCutShort: a snapshot whose time runs out stops reading, says so, and
// keeps what it did not reach as the last snapshot had it; the next one completes.
func TestSnapshotOverBudgetIsCutShort(t *testing.T) {
	root := t.TempDir()
	l := newLedger(t, Options{})
	write(t, root, "slow/x.txt", "one\n")
	write(t, root, "top.txt", "one\n")
	first := snap(t, l, root)
	write(t, root, "slow/x.txt", "two\n")
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	l.hook = func(step, rel string) {
		if step == hookListed && rel == "slow" {
			<-ctx.Done() // the budget runs out while this folder is read
		}
	}
	s, err := snapOrFail(t, l, ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	if !s.Partial || !hasNote(s, "cut short", "ran out of time") {
		t.Fatalf("partial %v, notes %q: want a snapshot cut short for time", s.Partial, s.Notes)
	}
	if got := changeList(t, l, root, first, s.Tree); len(got) != 0 {
		t.Fatalf("changes %v: what the snapshot did not reach must stay as it was", got)
	}
	l.hook = nil
	s, err = l.Snapshot(context.Background(), root)
	if err != nil || s.Partial {
		t.Fatalf("next snapshot: partial %v, %v", s.Partial, err)
	}
	if got := changeList(t, l, root, first, s.Tree); strings.Join(got, ",") != "modified slow/x.txt" {
		t.Fatalf("changes %v", got)
	}
}

// TestSnapshotStuckInACallIsLeftBehind: a walk stuck in a system call (a file system that does
// not answer, played by the hook) does not hold its caller past its time: Snapshot returns
// ErrSnapshotStuck, the folder's next snapshot gives up when its own time is out, and once the
// call returns snapshots work again.
func TestSnapshotStuckInACallIsLeftBehind(t *testing.T) {
	root := t.TempDir()
	l := newLedger(t, Options{})
	write(t, root, "a.txt", "a\n")
	release := make(chan struct{})
	ctx, cancel := context.WithCancel(context.Background())
	var once sync.Once
	l.hook = func(step, rel string) {
		if step == hookListed {
			once.Do(func() { cancel(); <-release }) // the turn is stopped while the call hangs
		}
	}
	if _, err := snapOrFail(t, l, ctx, root); !errors.Is(err, ErrSnapshotStuck) {
		t.Fatalf("err %v, want ErrSnapshotStuck", err)
	}
	expired, cancel2 := context.WithCancel(context.Background())
	cancel2()
	if _, err := snapOrFail(t, l, expired, root); !errors.Is(err, ErrSnapshotBusy) {
		t.Fatalf("err %v, want ErrSnapshotBusy", err)
	}
	close(release)
	if s, err := snapOrFail(t, l, context.Background(), root); err != nil || s.Partial {
		t.Fatalf("after the stuck call returned: partial %v, %v", s.Partial, err)
	}
}
