package fsys

import (
	"sync/atomic"

	"golang.org/x/sys/unix"
)

// oPath opens a folder only to resolve names beneath it: no read permission needed, no I/O.
const oPath = unix.O_PATH

// openat2Missing is set once openat2 answered ENOSYS (a kernel before 5.6, or a sandbox that
// forbids it): every later open walks (walkBeneath) without asking again.
var openat2Missing atomic.Bool

// openat2Beneath opens rel beneath the open folder root with openat2 and RESOLVE_BENEATH: the
// kernel resolves the whole path, links inside the folder included, and refuses (EXDEV) any step
// out of it, in one call that a link swapped meanwhile cannot fool. It also refuses links to
// absolute paths, even into the folder: callers walk those (see needsWalk). ENOSYS: no openat2.
func openat2Beneath(root int, rel string, flags int) (int, error) {
	if openat2Missing.Load() {
		return -1, unix.ENOSYS
	}
	if rel == "" {
		rel = "."
	}
	how := unix.OpenHow{Flags: uint64(flags | unix.O_CLOEXEC), Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_MAGICLINKS}
	for {
		fd, err := unix.Openat2(root, rel, &how)
		switch err {
		case unix.EINTR:
			continue
		case unix.ENOSYS:
			openat2Missing.Store(true)
		}
		return fd, err
	}
}
