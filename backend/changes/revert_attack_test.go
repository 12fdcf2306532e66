//go:build unix

package changes

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// The attacks of issue 29 on a revert: an agent plants the revert's old, guessable temp name, or
// swaps a file (or a folder above it) for a link or a FIFO, hoping the revert writes through it.

// turnTargets are the targets of reverting everything from tree from to tree expect in root, as
// the hub makes them (a rename's old name comes back too).
func turnTargets(t *testing.T, l *Ledger, root string, from, expect Hash) []Target {
	t.Helper()
	fs, err := l.Changes(root, from, expect)
	if err != nil {
		t.Fatal(err)
	}
	var out []Target
	for _, f := range fs {
		out = append(out, Target{Root: root, Path: f.Path, From: from, Expect: expect})
		if f.From != "" {
			out = append(out, Target{Root: root, Path: f.From, From: from, Expect: expect})
		}
	}
	return out
}

// planRevert plans targets against the disk as it is now and returns the plan and what carries it
// out (the hub calls both under one hold of its lock; a test may change the disk in between).
func planRevert(t *testing.T, l *Ledger, targets []Target) ([]PlannedFile, func() ([]string, error)) {
	t.Helper()
	plan, err := l.Plan(targets)
	if err != nil {
		t.Fatal(err)
	}
	return plan, func() ([]string, error) { return l.Apply(targets) }
}

// revertClean plans targets, wants no conflict, and carries them out.
func revertClean(t *testing.T, l *Ledger, targets []Target) {
	t.Helper()
	plan, apply := planRevert(t, l, targets)
	if cs := conflictsOf(plan); len(cs) != 0 {
		t.Fatalf("conflicts %v", cs)
	}
	if _, err := apply(); err != nil {
		t.Fatal(err)
	}
}

func conflictsOf(plan []PlannedFile) map[string]string {
	out := map[string]string{}
	for _, p := range plan {
		if p.Conflict != "" {
			out[p.Path] = p.Conflict
		}
	}
	return out
}

func readOr(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		return "<" + err.Error() + ">"
	}
	return string(b)
}

// gitFixture is a folder whose .git/config must never change, and a turn that changed a.txt.
func gitFixture(t *testing.T) (l *Ledger, root string, start, end Hash) {
	t.Helper()
	root = t.TempDir()
	l = newLedger(t, Options{})
	write(t, root, ".git/config", "[core]\n\tbare = false\n")
	write(t, root, "a.txt", "the person's text\n")
	start = snap(t, l, root)
	write(t, root, "a.txt", "the agent's text\n")
	end = snap(t, l, root)
	return l, root, start, end
}

const gitConfig = "[core]\n\tbare = false\n"

func TestRevertPlantedTempSymlink(t *testing.T) {
	l, root, start, end := gitFixture(t)
	if err := os.Symlink(".git/config", filepath.Join(root, ".agentdesk-revert-a.txt")); err != nil {
		t.Fatal(err)
	}
	revertClean(t, l, turnTargets(t, l, root, start, end))
	if got := readOr(t, filepath.Join(root, ".git/config")); got != gitConfig {
		t.Fatalf("the revert wrote through the planted link: .git/config = %q", got)
	}
	if got := readOr(t, filepath.Join(root, "a.txt")); got != "the person's text\n" {
		t.Fatalf("a.txt = %q after the revert", got)
	}
	if fi, err := os.Lstat(filepath.Join(root, "a.txt")); err != nil || !fi.Mode().IsRegular() {
		t.Fatalf("a.txt is not a regular file after the revert: %v %v", fi, err)
	}
}

func TestRevertPlantedTempHardLink(t *testing.T) {
	l, root, start, end := gitFixture(t)
	outside := filepath.Join(t.TempDir(), ".bashrc")
	write(t, filepath.Dir(outside), ".bashrc", "export PATH=/usr/bin\n")
	if err := os.Link(outside, filepath.Join(root, ".agentdesk-revert-a.txt")); err != nil {
		t.Fatal(err)
	}
	revertClean(t, l, turnTargets(t, l, root, start, end))
	if got := readOr(t, outside); got != "export PATH=/usr/bin\n" {
		t.Fatalf("the revert wrote through the planted hard link: the outside file = %q", got)
	}
	if got := readOr(t, filepath.Join(root, "a.txt")); got != "the person's text\n" {
		t.Fatalf("a.txt = %q after the revert", got)
	}
}

// A FIFO at the old temp name: opening it to write would wait for a reader for ever. The test
// fails by hanging (go test's -timeout) on code that opens it.
func TestRevertPlantedTempFIFO(t *testing.T) {
	l, root, start, end := gitFixture(t)
	fifo := filepath.Join(root, ".agentdesk-revert-a.txt")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	revertClean(t, l, turnTargets(t, l, root, start, end))
	if got := readOr(t, filepath.Join(root, "a.txt")); got != "the person's text\n" {
		t.Fatalf("a.txt = %q after the revert", got)
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Fatalf("the planted FIFO was touched: %v %v", fi, err)
	}
}

// The target is swapped after the plan and before the writes: Apply looks again, through the
// folder's descriptors, refuses with a conflict that names what it found, and writes nothing.
func TestRevertTargetSwappedBeforeTheWrite(t *testing.T) {
	cases := []struct {
		name, want string
		swap       func(t *testing.T, root, target string) (check func(t *testing.T))
	}{
		{"symlink", "symbolic link", func(t *testing.T, root, target string) func(*testing.T) {
			if err := os.Symlink(".git/config", target); err != nil {
				t.Fatal(err)
			}
			return func(t *testing.T) {
				if fi, err := os.Lstat(target); err != nil || fi.Mode()&os.ModeSymlink == 0 {
					t.Fatalf("the link was replaced: %v %v", fi, err)
				}
			}
		}},
		{"hard link", "hard link", func(t *testing.T, root, target string) func(*testing.T) {
			// A file outside the folder holding what the turn left, linked in: the bytes match.
			outside := filepath.Join(t.TempDir(), "secret")
			write(t, filepath.Dir(outside), "secret", "the agent's text\n")
			if err := os.Link(outside, target); err != nil {
				t.Fatal(err)
			}
			return func(t *testing.T) {
				if got := readOr(t, outside); got != "the agent's text\n" {
					t.Fatalf("the outside file = %q", got)
				}
				var st syscall.Stat_t
				if err := syscall.Stat(outside, &st); err != nil || st.Nlink != 2 {
					t.Fatalf("the hard link was replaced: nlink %d %v", st.Nlink, err)
				}
			}
		}},
		{"fifo", "FIFO", func(t *testing.T, root, target string) func(*testing.T) {
			if err := syscall.Mkfifo(target, 0o600); err != nil {
				t.Fatal(err)
			}
			return func(t *testing.T) {
				if fi, err := os.Lstat(target); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
					t.Fatalf("the FIFO was replaced: %v %v", fi, err)
				}
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l, root, start, end := gitFixture(t)
			plan, apply := planRevert(t, l, turnTargets(t, l, root, start, end))
			if cs := conflictsOf(plan); len(cs) != 0 {
				t.Fatalf("conflicts %v", cs)
			}
			target := filepath.Join(root, "a.txt")
			os.Remove(target)
			check := c.swap(t, root, target)
			done, err := apply()
			if err == nil || !strings.Contains(err.Error(), c.want) || len(done) != 0 {
				t.Fatalf("Apply over a %s: done %v, err %v; want a conflict naming a %s", c.name, done, err, c.want)
			}
			check(t)
			if got := readOr(t, filepath.Join(root, ".git/config")); got != gitConfig {
				t.Fatalf(".git/config = %q", got)
			}
			// Planned again, the swap is a conflict too.
			plan, _ = planRevert(t, l, turnTargets(t, l, root, start, end))
			if cs := conflictsOf(plan); !strings.Contains(cs["a.txt"], c.want) {
				t.Fatalf("plan conflicts %v, want a.txt's naming a %s", cs, c.want)
			}
		})
	}
}

// A folder above the target is swapped for a link to .git before the plan: the file the turn
// deleted would come back through the link, as .git/config.
func TestRevertParentSwappedForSymlink(t *testing.T) {
	root := t.TempDir()
	l := newLedger(t, Options{})
	write(t, root, ".git/config", gitConfig)
	write(t, root, "sub/config", "the person's settings\n")
	start := snap(t, l, root)
	if err := os.RemoveAll(filepath.Join(root, "sub")); err != nil {
		t.Fatal(err)
	}
	end := snap(t, l, root)
	if err := os.Symlink(".git", filepath.Join(root, "sub")); err != nil {
		t.Fatal(err)
	}
	plan, apply := planRevert(t, l, turnTargets(t, l, root, start, end))
	if cs := conflictsOf(plan); !strings.Contains(cs["sub/config"], "symbolic link") {
		t.Errorf("plan conflicts %v, want sub/config's naming the link above it", cs)
	}
	if _, err := apply(); err == nil {
		t.Error("Apply went ahead through a linked folder")
	}
	if got := readOr(t, filepath.Join(root, ".git/config")); got != gitConfig {
		t.Fatalf("the revert wrote through the linked folder: .git/config = %q", got)
	}
}

// A target that was hard-linked when the snapshot saw it (the same file since) is no foreign
// file: it is reverted.
func TestRevertKeepsItsOwnHardLinks(t *testing.T) {
	root := t.TempDir()
	l := newLedger(t, Options{})
	write(t, root, "a.txt", "one\n")
	start := snap(t, l, root)
	write(t, root, "a.txt", "two\n")
	if err := os.Link(filepath.Join(root, "a.txt"), filepath.Join(root, "b.txt")); err != nil {
		t.Fatal(err)
	}
	end := snap(t, l, root)
	revertClean(t, l, turnTargets(t, l, root, start, end)) // no conflict over its own hard link
	if got := readOr(t, filepath.Join(root, "a.txt")); got != "one\n" {
		t.Fatalf("a.txt = %q", got)
	}
	if _, err := os.Lstat(filepath.Join(root, "b.txt")); !os.IsNotExist(err) {
		t.Fatalf("b.txt (added by the turn) is still there: %v", err)
	}
}
