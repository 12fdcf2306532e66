//go:build unix

package changes

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A turn that changes the ignore rules must not hide its own changes, nor make untouched files
// look deleted, nor let its revert overwrite what the person wrote after it (issue 29, item 3).

func TestIgnoreEverythingTurnThenAPersonsEdit(t *testing.T) {
	root := t.TempDir()
	l := newLedger(t, Options{})
	write(t, root, ".gitignore", "*.log\n")
	write(t, root, "a.txt", "a, the person's\n")
	write(t, root, "b.txt", "b, never touched\n")
	start := snap(t, l, root)
	// The turn ignores everything and edits a.txt.
	write(t, root, ".gitignore", "*\n")
	write(t, root, "a.txt", "a, the agent's\n")
	end := snap(t, l, root)
	got := strings.Join(changeList(t, l, root, start, end), ", ")
	if got != "modified .gitignore, modified a.txt" {
		t.Errorf("the receipt lists %q, want the .gitignore change and a.txt only (b.txt untouched)", got)
	}
	// The person edits a.txt after the turn: reverting the turn is a conflict and writes nothing.
	write(t, root, "a.txt", "a, the person's later edit\n")
	plan, apply := planRevert(t, l, turnTargets(t, l, root, start, end))
	if cs := conflictsOf(plan); !strings.Contains(cs["a.txt"], "changed after this turn") {
		t.Errorf("plan conflicts %v, want a.txt changed after the turn", cs)
	}
	for _, p := range plan {
		if p.Path == "b.txt" {
			t.Errorf("the plan touches b.txt, which the turn did not: %+v", p)
		}
	}
	if _, err := apply(); err == nil {
		t.Error("Apply went ahead over the person's edit")
	}
	if got := readOr(t, filepath.Join(root, "a.txt")); got != "a, the person's later edit\n" {
		t.Fatalf("the person's edit was overwritten: a.txt = %q", got)
	}
	if got := readOr(t, filepath.Join(root, ".gitignore")); got != "*\n" {
		t.Fatalf("a conflicted revert wrote .gitignore: %q", got)
	}
	// The .gitignore change alone is revertable.
	revertClean(t, l, []Target{{Root: root, Path: ".gitignore", From: start, Expect: end}})
	if got := readOr(t, filepath.Join(root, ".gitignore")); got != "*.log\n" {
		t.Fatalf(".gitignore = %q after its revert", got)
	}
	if got := readOr(t, filepath.Join(root, "b.txt")); got != "b, never touched\n" {
		t.Fatalf("b.txt = %q", got)
	}
}

// A turn's new .gitignore that ignores itself, and its .ignore, are in its receipt.
func TestNewIgnoreFilesAreRecorded(t *testing.T) {
	root := t.TempDir()
	l := newLedger(t, Options{})
	write(t, root, "a.txt", "a\n")
	start := snap(t, l, root)
	write(t, root, "sub/.gitignore", "*\n")
	write(t, root, ".ignore", "*\n")
	end := snap(t, l, root)
	if got := strings.Join(changeList(t, l, root, start, end), ", "); got != "added .ignore, added sub/.gitignore" {
		t.Fatalf("the receipt lists %q, want the two new ignore files", got)
	}
}

func TestExcludeFileChangeIsRecordedAndRevertable(t *testing.T) {
	root := t.TempDir()
	l := newLedger(t, Options{})
	write(t, root, ".git/info/exclude", "# git ls-files --others --exclude-from=.git/info/exclude\n")
	write(t, root, ".git/config", gitConfig)
	write(t, root, "a.txt", "a\n")
	start := snap(t, l, root)
	write(t, root, ".git/info/exclude", "*\n")
	end := snap(t, l, root)
	if got := strings.Join(changeList(t, l, root, start, end), ", "); got != "modified .git/info/exclude" {
		t.Fatalf("the receipt lists %q, want only the exclude file's change", got)
	}
	revertClean(t, l, turnTargets(t, l, root, start, end))
	if got := readOr(t, filepath.Join(root, ".git/info/exclude")); !strings.HasPrefix(got, "# git ls-files") {
		t.Fatalf(".git/info/exclude = %q after the revert", got)
	}
	if got := readOr(t, filepath.Join(root, ".git/config")); got != gitConfig {
		t.Fatalf(".git/config = %q", got)
	}
	// Only that one file of .git: nothing else there is a revert's target.
	if _, err := l.Plan([]Target{{Root: root, Path: ".git/config", From: start, Expect: end}}); err == nil {
		t.Fatal("a target in .git other than info/exclude was accepted")
	}
}

// The person ignores a file after the turn and edits it: the plan reads the disk, so the file
// is changed, not "deleted".
func TestRevertReadsTheDiskNotTheRules(t *testing.T) {
	root := t.TempDir()
	l := newLedger(t, Options{})
	write(t, root, "a.txt", "one\n")
	start := snap(t, l, root)
	write(t, root, "a.txt", "two\n")
	end := snap(t, l, root)
	write(t, root, ".gitignore", "a.txt\n")
	write(t, root, "a.txt", "three\n")
	plan, _ := planRevert(t, l, turnTargets(t, l, root, start, end))
	if cs := conflictsOf(plan); cs["a.txt"] != "it was changed after this turn" {
		t.Fatalf("conflicts %v, want a.txt changed after the turn", cs)
	}
	if err := os.Remove(filepath.Join(root, "a.txt")); err != nil {
		t.Fatal(err)
	}
	plan, _ = planRevert(t, l, turnTargets(t, l, root, start, end))
	if cs := conflictsOf(plan); cs["a.txt"] != "it was deleted after this turn" {
		t.Fatalf("conflicts %v, want a.txt deleted after the turn", cs)
	}
}
