//go:build unix

package ignore

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestGlobalExcludesFIFODoesNotBlock: a FIFO where the person's global excludes file is looked
// for is not read (a plain open would block every ledger and file finder for ever): Global
// returns no patterns, and ReadFile refuses it as not a regular file.
func TestGlobalExcludesFIFODoesNotBlock(t *testing.T) {
	xdg := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", xdg)
	t.Setenv("HOME", t.TempDir())
	fifo := filepath.Join(xdg, "git", "ignore")
	os.MkdirAll(filepath.Dir(fifo), 0o755)
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		if ps := Global(); len(ps) != 0 {
			t.Errorf("patterns %v from a FIFO", ps)
		}
		_, err := ReadFile(fifo)
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("ReadFile read a FIFO")
		}
	case <-time.After(20 * time.Second):
		t.Fatal("reading the global excludes hung on a FIFO")
	}
}
