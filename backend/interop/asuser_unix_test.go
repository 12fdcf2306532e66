//go:build unix

package interop

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"agentdesk/backend/registry"
	"agentdesk/internal/asnobody"
)

// TestTheAgentsAsAUser: the agents reply, ask before an edit and run a command for a person
// who is not root, as they do for root (CI). As root the test runs itself again as nobody, over
// a copy of the cache nobody can read (hard links).
func TestTheAgentsAsAUser(t *testing.T) {
	if os.Geteuid() == 0 {
		// Not t.TempDir: its parent is private to root.
		cache, err := os.MkdirTemp("", "agentdesk-interop-nobody-")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.RemoveAll(cache) })
		if err := os.Chmod(cache, 0o1777); err != nil { // nobody makes Codex's homes in it
			t.Fatal(err)
		}
		for _, e := range []registry.Entry{Pinned.Claude, Pinned.Codex} {
			in := installed(t, e)
			if err := linkTree(filepath.Dir(in.Dir), filepath.Join(cache, e.ID)); err != nil {
				t.Fatalf("copy %s for nobody: %v", e.Name, err)
			}
		}
		t.Setenv("AGENTDESK_INTEROP_CACHE", cache)
		t.Setenv(RequireEnv, "1") // the copy has them all: a skip as nobody is a failure
	}
	if asnobody.Rerun(t) {
		return
	}
	each(t, func(t *testing.T, f flavour, wire *Tripwire) {
		aReply(t, f, wire)
		anEdit(t, f, wire)
		aCommand(t, f, wire)
	})
}

// linkTree makes a tree at to that everyone may read with the files of from hard-linked into
// it (no copy of the agents' hundreds of megabytes) and its small files (the registry's
// manifests, private to root) copied readable.
func linkTree(from, to string) error {
	return filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, path)
		dst := filepath.Join(to, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(dst, 0o755)
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(path)
			if err != nil {
				return err
			}
			return os.Symlink(target, dst)
		case filepath.Ext(path) == ".json" && filepath.Dir(path) == from: // state.json
			raw, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			return os.WriteFile(dst, raw, 0o644)
		default:
			return os.Link(path, dst)
		}
	})
}
