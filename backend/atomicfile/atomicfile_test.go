package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestWriteReplacesWholeWithMode: a new file and a replaced one get the data and the mode asked
// for, and no temporary file is left beside them.
func TestWriteReplacesWholeWithMode(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f.json")
	for _, c := range []struct {
		data string
		perm os.FileMode
	}{{"first", 0o644}, {"second, longer", 0o600}} {
		if err := Write(path, []byte(c.data), c.perm); err != nil {
			t.Fatal(err)
		}
		got, _ := os.ReadFile(path)
		st, _ := os.Stat(path)
		if string(got) != c.data || st.Mode().Perm() != c.perm {
			t.Fatalf("after Write(%q, %o): %q, %o", c.data, c.perm, got, st.Mode().Perm())
		}
	}
	if names, _ := os.ReadDir(dir); len(names) != 1 {
		t.Fatalf("left beside the file: %v", names)
	}
}

// TestWriteReplacesASymlinkNotItsTarget: a link planted at path is replaced; the file it points
// to is not written.
func TestWriteReplacesASymlinkNotItsTarget(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target")
	os.WriteFile(target, []byte("keep"), 0o644)
	path := filepath.Join(dir, "f")
	if err := os.Symlink(target, path); err != nil {
		t.Fatal(err)
	}
	if err := Write(path, []byte("new"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(target); string(got) != "keep" {
		t.Fatalf("the link's target was written: %q", got)
	}
	if st, _ := os.Lstat(path); st.Mode()&os.ModeSymlink != 0 {
		t.Fatal("the link is still there")
	}
}

// TestWriteFailureKeepsTheOldAndTheErrno: a write that cannot finish (a folder is in the way)
// leaves what was there, removes its temporary file and keeps the errno for the caller's words;
// a missing folder reports ENOENT.
func TestWriteFailureKeepsTheOldAndTheErrno(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "taken")
	os.Mkdir(path, 0o755)
	os.WriteFile(filepath.Join(path, "inside"), []byte("x"), 0o644)
	err := Write(path, []byte("new"), 0o644)
	if err == nil {
		t.Fatal("a folder at the path was replaced")
	}
	var pathErr *os.LinkError
	if !errors.As(err, &pathErr) {
		t.Fatalf("the rename's error is not kept: %v", err)
	}
	if names, _ := os.ReadDir(dir); len(names) != 1 {
		t.Fatalf("a temporary file was left: %v", names)
	}
	if err := Write(filepath.Join(dir, "no", "f"), nil, 0o644); !errors.Is(err, syscall.ENOENT) {
		t.Fatalf("a missing folder: %v", err)
	}
}
