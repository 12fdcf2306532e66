//go:build unix && !linux

package fsys

import "golang.org/x/sys/unix"

// oPath: without O_PATH a folder is opened for reading to resolve names beneath it.
const oPath = unix.O_RDONLY

// openat2Beneath is Linux's: elsewhere every open walks (walkBeneath).
func openat2Beneath(root int, rel string, flags int) (int, error) { return -1, unix.ENOSYS }
