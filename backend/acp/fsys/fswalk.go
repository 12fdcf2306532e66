//go:build unix

package fsys

import (
	"errors"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// errOutside is a path, or a symbolic link on its way, that leads out of the session folder.
var errOutside = errors.New("outside the session folder")

// errFollow is what a walk's last step returns when the last name is a symbolic link: the walk
// reads the link and goes on to its target.
var errFollow = errors.New("the last name is a symbolic link")

// maxLinkHops is how many symbolic links one path may go through, as for the kernel.
const maxLinkHops = 40

// openDirFlags open a folder on the way without following a link by name, and only to walk it.
const openDirFlags = unix.O_DIRECTORY | unix.O_NOFOLLOW | unix.O_CLOEXEC | oPath

// walkBeneath resolves rel (slash-separated, relative) beneath the open folder root, one name at
// a time, where openat2 cannot do it (see openat2Beneath): the kernel never follows a link by
// name (O_NOFOLLOW); each link is read and its target walked in turn; ".." goes back to a folder
// already open and never above root; a link to an absolute path is followed only when inside
// maps it into the folder. Every folder is held open while it is walked, so a link or folder
// swapped meanwhile cannot lead out. With create, missing folders on the way are made.
//
// last is called with the folder holding the last name and that name ("." for the folder
// itself); it returns errFollow when the name is a link, and then is called again for the
// link's target.
func walkBeneath(root int, rel string, inside func(abs string) (string, bool), create bool, last func(dir int, name string) error) error {
	w := walker{root: root}
	defer w.reset()
	names := splitPath(rel)
	hops := 0
	follow := func(name string) error {
		target, err := ReadLinkAt(w.dir(), name)
		if err != nil {
			return err
		}
		if hops++; hops > maxLinkHops {
			return unix.ELOOP
		}
		if filepath.IsAbs(target) {
			r, ok := inside(filepath.Clean(target))
			if !ok {
				return errOutside
			}
			w.reset()
			target = r
		}
		// Not cleaned: "a/../b" after a link must go back physically, as the kernel would.
		names = append(splitPath(target), names...)
		return nil
	}
	for {
		if len(names) == 0 {
			return last(w.dir(), ".")
		}
		name := names[0]
		names = names[1:]
		switch {
		case name == ".":
			continue
		case name == "..":
			if !w.up() {
				return errOutside
			}
			continue
		case len(names) == 0:
			err := last(w.dir(), name)
			if err != errFollow {
				return err
			}
			if err := follow(name); err != nil {
				return err
			}
			continue
		}
		fd, err := unix.Openat(w.dir(), name, openDirFlags, 0)
		if err == unix.ENOENT && create {
			if err = unix.Mkdirat(w.dir(), name, 0o755); err == nil || err == unix.EEXIST {
				fd, err = unix.Openat(w.dir(), name, openDirFlags, 0)
			}
		}
		if err == unix.ELOOP || err == unix.ENOTDIR || err == unix.EMLINK {
			// A link (O_NOFOLLOW refuses it), or not a folder at all.
			if ferr := follow(name); ferr != unix.EINVAL {
				if ferr != nil {
					return ferr
				}
				continue
			}
			return unix.ENOTDIR
		}
		if err != nil {
			return err
		}
		w.push(fd)
	}
}

// walker is the chain of folders a walk holds open below its root.
type walker struct {
	root  int   // not owned
	stack []int // owned, deepest last
}

func (w *walker) dir() int {
	if len(w.stack) == 0 {
		return w.root
	}
	return w.stack[len(w.stack)-1]
}

func (w *walker) push(fd int) { w.stack = append(w.stack, fd) }

// up goes back to the parent folder; false at the root, which has none inside the folder.
func (w *walker) up() bool {
	if len(w.stack) == 0 {
		return false
	}
	unix.Close(w.stack[len(w.stack)-1])
	w.stack = w.stack[:len(w.stack)-1]
	return true
}

// reset goes back to the root.
func (w *walker) reset() {
	for w.up() {
	}
}

// ReadLinkAt is the target of the link name in the open folder dir; EINVAL when name is not a
// link. The change ledger reads links with it too.
func ReadLinkAt(dir int, name string) (string, error) {
	for size := 256; ; size *= 2 {
		buf := make([]byte, size)
		n, err := unix.Readlinkat(dir, name, buf)
		if err != nil {
			return "", err
		}
		if n < size {
			if n == 0 {
				return "", unix.ENOENT
			}
			return string(buf[:n]), nil
		}
	}
}

// splitPath is the names of a slash-separated path, without empty ones.
func splitPath(p string) []string {
	var names []string
	for _, n := range strings.Split(p, "/") {
		if n != "" {
			names = append(names, n)
		}
	}
	return names
}
