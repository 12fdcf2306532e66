// Package atomicfile replaces a file's contents all at once.
//
// Guarantees: Write leaves the file either as it was or wholly replaced with the new data and
// mode, never half written, also across a crash (the data is synced before the rename); readers
// see the old file or the new one. A temporary file in the same folder is used and removed on
// any failure. Errors keep the *fs.PathError or errno of the step that failed, so callers can
// word them (export.DescribeSaveError does).
package atomicfile

import (
	"fmt"
	"os"
	"path/filepath"
)

// Write replaces path with data at mode perm. It blocks for the disk's sync. An existing path is
// replaced even when it is read-only to its owner (the folder must be writable); a symlink at
// path is replaced, not followed.
func Write(path string, data []byte, perm os.FileMode) (err error) {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("create a temporary file in %s: %w", dir, err)
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if err = f.Chmod(perm); err != nil {
		return fmt.Errorf("chmod %s: %w", tmp, err)
	}
	if _, err = f.Write(data); err != nil {
		return fmt.Errorf("write %s: %w", tmp, err)
	}
	if err = f.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", tmp, err)
	}
	if err = f.Close(); err != nil {
		return fmt.Errorf("close %s: %w", tmp, err)
	}
	if err = os.Rename(tmp, path); err != nil {
		return fmt.Errorf("rename %s to %s: %w", tmp, path, err)
	}
	return nil
}
