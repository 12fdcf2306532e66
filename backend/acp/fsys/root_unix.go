//go:build unix

package fsys

import (
	"io/fs"

	"golang.org/x/sys/unix"
)

// handle is an open folder: a descriptor every path is opened beneath (fsio.go, fswalk.go).
type handle = int

// openRoot opens the folder root (absolute, links resolved) only to resolve names beneath it.
func openRoot(root string) (handle, error) {
	fd, err := unix.Open(root, unix.O_DIRECTORY|unix.O_CLOEXEC|oPath, 0)
	if err != nil {
		return -1, &fs.PathError{Op: "open", Path: root, Err: err}
	}
	return fd, nil
}

func closeRoot(h handle) error { return unix.Close(h) }
