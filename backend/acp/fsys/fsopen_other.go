//go:build unix && !linux

package fsys

import (
	"sync/atomic"

	"golang.org/x/sys/unix"
)

// oPath: without O_PATH a folder is opened for reading to resolve names beneath it.
const oPath = unix.O_RDONLY

// openat2Missing: there is no openat2 here, so every open walks whatever it says.
var openat2Missing atomic.Bool

// openat2Beneath is Linux's: elsewhere every open walks (walkBeneath).
func openat2Beneath(root int, rel string, flags int) (int, error) { return -1, unix.ENOSYS }
