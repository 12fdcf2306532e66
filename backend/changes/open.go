//go:build unix

package changes

import (
	"fmt"
	"io"
	"os"

	"golang.org/x/sys/unix"

	"agentdesk/backend/acp/fsys"
)

// readFlags open what a snapshot reads: never blocking (a FIFO with no writer would block a plain
// open, and the thread under it, for ever), never following a link by name, never making a
// terminal ours. What is opened is then checked to be of the expected type on the descriptor.
const readFlags = unix.O_RDONLY | unix.O_NONBLOCK | unix.O_NOFOLLOW | unix.O_NOCTTY | unix.O_CLOEXEC

// notRegularError is a name that is not of the type the snapshot expected (a regular file or a
// folder); mode is its st_mode, from fstat on the open descriptor or from fstatat without
// following a link.
type notRegularError struct{ mode uint32 }

func (e notRegularError) Error() string { return fsys.FileKind(e.mode) + ", not a regular file" }

// openAt opens name in the open folder dir with readFlags (and O_DIRECTORY for a folder) and
// checks with fstat on the new descriptor that it is of type want (unix.S_IFREG or
// unix.S_IFDIR): a name swapped for a FIFO, a device or a link since it was listed is refused
// (notRegularError, or ELOOP for a link), never read.
func openAt(dir int, name string, want uint32) (*os.File, *unix.Stat_t, error) {
	flags := readFlags
	if want == unix.S_IFDIR {
		flags |= unix.O_DIRECTORY
	}
	var fd int
	var err error
	for {
		if fd, err = unix.Openat(dir, name, flags, 0); err != unix.EINTR {
			break
		}
	}
	if err != nil {
		return nil, nil, err
	}
	st := new(unix.Stat_t)
	if err := unix.Fstat(fd, st); err != nil {
		unix.Close(fd)
		return nil, nil, err
	}
	if uint32(st.Mode)&unix.S_IFMT != want {
		unix.Close(fd)
		return nil, nil, notRegularError{uint32(st.Mode)}
	}
	return os.NewFile(uintptr(fd), name), st, nil
}

// readAt reads the regular file name in the open folder dir, at most max bytes (it may have
// grown since its stat), and returns it with its fstat.
func readAt(dir int, name string, max int64) ([]byte, *unix.Stat_t, error) {
	f, st, err := openAt(dir, name, unix.S_IFREG)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, nil, err
	}
	if int64(len(data)) > max {
		return nil, nil, fmt.Errorf("it grew past the %s limit while it was read", humanSize(max))
	}
	return data, st, nil
}

// statAt is the lstat of name in the open folder dir (a link is not followed).
func statAt(dir int, name string) (*unix.Stat_t, error) {
	st := new(unix.Stat_t)
	for {
		err := unix.Fstatat(dir, name, st, unix.AT_SYMLINK_NOFOLLOW)
		if err != unix.EINTR {
			return st, err
		}
	}
}
