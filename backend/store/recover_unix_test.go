//go:build unix

package store

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"agentdesk/internal/asnobody"
)

// dirListing returns the names in dir.
func dirListing(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names
}

// readOnlyDir makes dir read-only for the rest of the test.
func readOnlyDir(t *testing.T, dir string) {
	t.Helper()
	if err := os.Chmod(dir, 0o500); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(dir, 0o700) }) // so that TempDir can remove it
}

func TestReadOnlyFolderFailsClearlyAndMovesNothing(t *testing.T) {
	if asnobody.Rerun(t) {
		return
	}
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "history.db")
	s := openTestAt(t, path)
	s.Writer().CreateSession(Session{ID: "s", Title: "kept"})
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	garbage := filepath.Join(dir, "garbage.db")
	if err := os.WriteFile(garbage, []byte(strings.Repeat("not sqlite ", 500)), 0o600); err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	names := dirListing(t, dir)
	readOnlyDir(t, dir)

	// A good database: SQLite needs to create its -shm (and -wal) next to it, so the store
	// cannot even read it. The error says so and what to do.
	if s, err := Open(ctx, path); err == nil {
		s.Close()
		t.Fatal("Open in a read-only folder succeeded")
	} else if msg := err.Error(); !strings.Contains(msg, path) || !strings.Contains(msg, "check the permissions") ||
		strings.Contains(msg, "not a valid agentdesk database") {
		t.Errorf("Open error = %q, want the path and a permissions hint", msg)
	}
	s2, notice, err := OpenOrRecover(ctx, path)
	if err == nil {
		s2.Close()
		t.Fatal("OpenOrRecover in a read-only folder succeeded")
	}
	if notice != "" || !strings.Contains(err.Error(), "check the permissions") {
		t.Errorf("OpenOrRecover = %q, %v; want no notice and the permissions hint", notice, err)
	}
	t.Logf("read-only folder: %v", err)

	// An invalid file cannot be moved out of a read-only folder: the error says both.
	s3, notice, err := OpenOrRecover(ctx, garbage)
	if err == nil {
		s3.Close()
		t.Fatal("OpenOrRecover of garbage in a read-only folder succeeded")
	}
	if notice != "" || !strings.Contains(err.Error(), "not a valid agentdesk database") ||
		!strings.Contains(err.Error(), "failed") {
		t.Errorf("OpenOrRecover(garbage) = %q, %v; want the reason and the failed move", notice, err)
	}
	t.Logf("garbage in a read-only folder: %v", err)

	if got := dirListing(t, dir); !slices.Equal(got, names) {
		t.Errorf("folder changed: %v, was %v", got, names)
	}
	if after, err := os.ReadFile(path); err != nil || !bytes.Equal(after, before) {
		t.Errorf("database changed (%v)", err)
	}
}
