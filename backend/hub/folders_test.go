package hub

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestCheckFolderFlagsHomeAndRoot: the home folder itself and / are broad; a project folder,
// also ~/x, is not; a missing folder is a *FolderError, an empty one ErrNoFolder.
func TestCheckFolderFlagsHomeAndRoot(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	if err := os.Mkdir(filepath.Join(home, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ dir, path, broad string }{
		{"~", home, BroadHome},
		{home + "/", home, BroadHome},
		{"/", "/", BroadRoot},
		{"~/src", filepath.Join(home, "src"), ""},
	} {
		got, err := CheckFolder(c.dir)
		if err != nil || got.Path != c.path || got.Broad != c.broad {
			t.Errorf("CheckFolder(%q) = %+v, %v, want %s broad %q", c.dir, got, err, c.path, c.broad)
		}
	}
	var fe *FolderError
	if _, err := CheckFolder(filepath.Join(home, "gone")); !errors.As(err, &fe) {
		t.Errorf("a missing folder: %v, want a *FolderError", err)
	}
	if _, err := CheckFolder("  "); !errors.Is(err, ErrNoFolder) {
		t.Errorf("no folder: %v, want ErrNoFolder", err)
	}
}
