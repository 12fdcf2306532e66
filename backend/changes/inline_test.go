//go:build unix

package changes

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// objectFiles counts the files of the ledger's object store.
func objectFiles(t *testing.T, l *Ledger) int {
	t.Helper()
	n := 0
	filepath.WalkDir(l.objs.dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			n++
		}
		return nil
	})
	return n
}

// TestTinyFilesAreKeptInline: tiny files cost no object file each (a disk block apiece): their
// content rides in their folder's record, and still diffs, dedups and reverts by content.
func TestTinyFilesAreKeptInline(t *testing.T) {
	root := t.TempDir()
	l := newLedger(t, Options{})
	for i := range 100 {
		write(t, root, filepath.Join("d", strings.Repeat("f", 1+i%9)+string(rune('a'+i/9))), "tiny "+string(rune('a'+i%26))+"\n")
	}
	write(t, root, "d/link-target.txt", "x\n")
	os.Symlink("link-target.txt", filepath.Join(root, "d", "link"))
	a := snap(t, l, root)
	if n := objectFiles(t, l); n != 2 { // the records of the folder and of d
		t.Fatalf("%d object files for 102 tiny entries, want 2 (their folders' records)", n)
	}
	write(t, root, "d/link-target.txt", "y\n")
	b := snap(t, l, root)
	fs, err := l.Changes(root, a, b)
	if err != nil || len(fs) != 1 {
		t.Fatalf("changes %+v %v", fs, err)
	}
	d, err := l.FileDiff(fs[0], a, b)
	if err != nil || d.Before == nil || *d.Before != "x\n" || *d.After != "y\n" {
		t.Fatalf("diff %+v %v", d, err)
	}
	targets := []Target{{Root: root, Path: "d/link-target.txt", From: a, Expect: b}}
	if _, err := l.Apply(targets); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(root, "d/link-target.txt")); string(got) != "x\n" {
		t.Fatalf("reverted to %q", got)
	}
}

// TestOldLedgerStillReads: a ledger written before inline content (every file an object, its
// records version 1) reads as before, and a snapshot of an unchanged folder over it gives the
// same tree (nothing stored again).
func TestOldLedgerStillReads(t *testing.T) {
	root := t.TempDir()
	// A clock an hour ahead: the file is not too fresh to trust, so the stat cache is used.
	l := newLedger(t, Options{Now: func() time.Time { return time.Now().Add(time.Hour) }})
	write(t, root, "a.txt", "old content\n")
	st, err := statAt(-100, filepath.Join(root, "a.txt")) // AT_FDCWD: an absolute path
	if err != nil {
		t.Fatal(err)
	}
	// What the old code wrote: the blob as an object, a version 1 record naming it.
	h, _, err := l.objs.put([]byte("old content\n"))
	if err != nil {
		t.Fatal(err)
	}
	rec := encodeTree([]entry{{name: "a.txt", kind: kindFile, size: st.Size, mtime: st.Mtim.Nano(), ino: st.Ino, hash: h}})
	if !strings.HasPrefix(string(rec), treeMagic) {
		t.Fatal("a record with nothing inline is not version 1")
	}
	old, _, err := l.objs.put(rec)
	if err != nil {
		t.Fatal(err)
	}
	fs, err := l.Changes(root, "", old)
	if err != nil || len(fs) != 1 {
		t.Fatalf("changes %+v %v", fs, err)
	}
	if d, err := l.FileDiff(fs[0], "", old); err != nil || d.After == nil || *d.After != "old content\n" {
		t.Fatalf("diff %+v %v", d, err)
	}
	l.setLast(root, old)
	s := snap(t, l, root)
	if s != old {
		t.Fatal("an unchanged folder over an old record gave a new tree")
	}
}
