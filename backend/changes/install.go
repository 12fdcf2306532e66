//go:build unix

package changes

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/unix"

	"agentdesk/backend/acp/fsys"
)

// errSwapped: a target changed between the revert's look at it and its write.
var errSwapped = errors.New("it changed while it was being reverted; nothing was written to it: look at it and revert again")

// install puts content (or, for a link, its target) in place of name in folder dir, as a careful
// installer does: written to a new file of a random name made with O_CREAT|O_EXCL|O_NOFOLLOW
// (nothing planted beforehand can receive it), fsync'd, then renamed over name, provided name is
// still what was (the same inode, or still absent). The folder is fsync'd after.
func install(dir int, name string, was onDisk, content []byte, mode uint32, link bool) error {
	var tmp string
	if link {
		var err error
		if tmp, err = symlinkTemp(dir, name, string(content)); err != nil {
			return err
		}
	} else {
		t, f, err := fsys.CreateTempAt(dir, name)
		if err != nil {
			return err
		}
		tmp = t
		_, werr := f.Write(content)
		if err := errors.Join(werr, f.Chmod(os.FileMode(mode)), f.Sync(), f.Close()); err != nil {
			unix.Unlinkat(dir, tmp, 0)
			return err
		}
	}
	if err := stillAt(dir, name, was); err != nil {
		unix.Unlinkat(dir, tmp, 0)
		return err
	}
	if err := unix.Renameat(dir, tmp, dir, name); err != nil {
		unix.Unlinkat(dir, tmp, 0)
		return err
	}
	return unix.Fsync(dir)
}

// remove deletes name (a file or a link, never followed) from folder dir, provided it is still
// what was.
func remove(dir int, name string, was onDisk) error {
	if err := stillAt(dir, name, was); err != nil {
		return err
	}
	if err := unix.Unlinkat(dir, name, 0); err != nil && err != unix.ENOENT {
		return err
	}
	return unix.Fsync(dir)
}

// stillAt checks that name in dir is still the file was describes.
func stillAt(dir int, name string, was onDisk) error {
	var st unix.Stat_t
	now := onDisk{}
	switch err := unix.Fstatat(dir, name, &st, unix.AT_SYMLINK_NOFOLLOW); {
	case err == nil:
		now = statOf(&st)
	case err != unix.ENOENT:
		return err
	}
	if !was.sameFile(now) {
		return errSwapped
	}
	return nil
}

// symlinkTemp makes a link to target under a new random name next to name in dir.
func symlinkTemp(dir int, name, target string) (string, error) {
	for range 10 {
		tmp := fsys.TempName(name)
		err := unix.Symlinkat(target, dir, tmp)
		if err == unix.EEXIST {
			continue
		}
		return tmp, err
	}
	return "", fmt.Errorf("make a link next to %s: %w", name, unix.EEXIST)
}
