//go:build unix

package fsys

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path"

	"golang.org/x/sys/unix"

	"agentdesk/backend/acp/jsonrpc"
	"agentdesk/backend/acp/schema"
)

// readFlags open a file to read without blocking: a FIFO with no writer would block a plain open
// (and the OS thread under it) for ever. The file is checked to be regular before it is read.
const readFlags = unix.O_RDONLY | unix.O_NONBLOCK | unix.O_NOCTTY | unix.O_CLOEXEC

// notRegularError is a file that is not a regular file; mode is its st_mode.
type notRegularError struct{ mode uint32 }

var _ error = notRegularError{}

func (e notRegularError) Error() string { return FileKind(e.mode) + ", not a regular file" }

// needsWalk reports an openat2 failure that walking name by name settles: no openat2 (ENOSYS),
// a step out of the folder or a link to an absolute path (EXDEV: the walk tells them apart), or
// a rename racing with "..” (EAGAIN).
func needsWalk(err error) bool { return err == unix.ENOSYS || err == unix.EXDEV || err == unix.EAGAIN }

// openBeneath opens rel beneath the folder with flags: with openat2 when it can, else by walking.
func (f *Folder) openBeneath(rel string, flags int) (int, error) {
	fd, err := openat2Beneath(f.fd, rel, flags)
	if !needsWalk(err) {
		return fd, err
	}
	err = walkBeneath(f.fd, rel, f.inside, false, func(dir int, name string) error {
		fd, err = unix.Openat(dir, name, flags|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		if err == unix.ELOOP || err == unix.EMLINK { // a link: O_NOFOLLOW refuses it
			return errFollow
		}
		return err
	})
	return fd, err
}

// readBeneath returns the content of the regular file rel, at most maxTextFile bytes.
func (f *Folder) readBeneath(rel string) ([]byte, error) {
	fd, err := f.openBeneath(rel, readFlags)
	if err != nil {
		return nil, err
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return nil, err
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		unix.Close(fd)
		return nil, notRegularError{uint32(st.Mode)}
	}
	file := os.NewFile(uintptr(fd), rel)
	defer file.Close()
	if st.Size > maxTextFile {
		return nil, errTooLarge
	}
	data, err := io.ReadAll(io.LimitReader(file, maxTextFile+1)) // it may grow while read
	if err != nil {
		return nil, err
	}
	if len(data) > maxTextFile {
		return nil, errTooLarge
	}
	return data, nil
}

var errTooLarge = errors.New("larger than 64 MiB")

// writeBeneath replaces the regular file rel (or creates it, with its missing folders) with
// data. The folder holding it is opened beneath the session folder and the file is written there
// by name relative to that descriptor, so a link swapped meanwhile cannot send the data out.
func (f *Folder) writeBeneath(rel string, data []byte) error {
	last := func(dir int, name string) error {
		var st unix.Stat_t
		mode := uint32(0o644)
		switch err := unix.Fstatat(dir, name, &st, unix.AT_SYMLINK_NOFOLLOW); {
		case err == unix.ENOENT:
		case err != nil:
			return err
		case st.Mode&unix.S_IFMT == unix.S_IFLNK:
			return errFollow
		case st.Mode&unix.S_IFMT != unix.S_IFREG:
			return notRegularError{uint32(st.Mode)}
		default:
			mode = uint32(st.Mode) & 0o777
		}
		return replaceAt(dir, name, data, mode)
	}
	dir, err := openat2Beneath(f.fd, path.Dir(rel), unix.O_DIRECTORY|oPath)
	if err == nil {
		err = last(dir, path.Base(rel))
		unix.Close(dir)
		if err != errFollow {
			return err
		}
	} else if !needsWalk(err) && err != unix.ENOENT {
		return err
	}
	// Missing folders to make, links to absolute paths or to the file: name by name.
	return walkBeneath(f.fd, rel, f.inside, true, last)
}

// replaceAt writes data to a new file in dir and renames it over name, all relative to dir:
// readers see the old content or the new, never a part.
func replaceAt(dir int, name string, data []byte, mode uint32) error {
	tmp, file, err := CreateTempAt(dir, name)
	if err != nil {
		return err
	}
	_, werr := file.Write(data)
	merr := file.Chmod(os.FileMode(mode)) // the umask does not apply to a kept mode
	if err := errors.Join(werr, merr, file.Close()); err != nil {
		unix.Unlinkat(dir, tmp, 0)
		return err
	}
	if err := unix.Renameat(dir, tmp, dir, name); err != nil {
		unix.Unlinkat(dir, tmp, 0)
		return err
	}
	return nil
}

// CreateTempAt creates a new, hidden file next to name in dir: a random name (TempName), opened
// with O_CREAT|O_EXCL|O_NOFOLLOW (never an existing file or link), mode 0600, so nothing planted
// beforehand can receive what is written to it. It returns the name and the open file.
func CreateTempAt(dir int, name string) (string, *os.File, error) {
	for range 10 {
		tmp := TempName(name)
		fd, err := unix.Openat(dir, tmp, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
		if err == unix.EEXIST {
			continue
		}
		if err != nil {
			return "", nil, err
		}
		return tmp, os.NewFile(uintptr(fd), tmp), nil
	}
	return "", nil, unix.EEXIST
}

// TempName is a new, hidden, unguessable name for a temporary file next to name (".name.agentdesk-"
// and 12 random hex digits; fits in 255 bytes). Whoever uses it still creates it exclusively.
func TempName(name string) string {
	base := name
	if len(base) > 200 { // the temp name must fit in 255 bytes
		base = base[:200]
	}
	var r [6]byte
	_, _ = rand.Read(r[:])
	return "." + base + ".agentdesk-" + hex.EncodeToString(r[:])
}

// pathError turns what went wrong with the agent's path p (rel inside the folder) into the
// answer: -32602 saying why for a path outside or a file that is not regular or too large,
// -32002 for a missing file to read, else the error with what was being done.
func (f *Folder) pathError(op, p, rel string, err error) error {
	var nr notRegularError
	switch {
	case errors.Is(err, errOutside):
		return f.outside(p)
	case errors.As(err, &nr):
		return notRegular(op, p, nr.mode)
	case errors.Is(err, errTooLarge):
		return &jsonrpc.Error{Code: schema.CodeInvalidParams, Message: fmt.Sprintf("%s is larger than 64 MiB: agentdesk reads files of at most 64 MiB", p)}
	case op == "read" && err == unix.ENOENT:
		return &jsonrpc.Error{Code: schema.CodeResourceNotFound, Message: "Resource not found: " + p}
	case err == unix.ENXIO: // open says so of a socket (and of a device without a driver)
		if mode, serr := f.lstatBeneath(rel); serr == nil && mode&unix.S_IFMT != unix.S_IFREG {
			return notRegular(op, p, mode)
		}
	}
	return fmt.Errorf("%s %s: %w", op, p, err)
}

func notRegular(op, p string, mode uint32) *jsonrpc.Error {
	return &jsonrpc.Error{Code: schema.CodeInvalidParams,
		Message: fmt.Sprintf("cannot %s %s: it is %s, not a regular file; agentdesk reads and writes only regular files", op, p, FileKind(mode))}
}

// lstatBeneath is the st_mode of rel itself (a link is not followed), to say what a file is.
func (f *Folder) lstatBeneath(rel string) (uint32, error) {
	var st unix.Stat_t
	err := walkBeneath(f.fd, rel, f.inside, false, func(dir int, name string) error {
		return unix.Fstatat(dir, name, &st, unix.AT_SYMLINK_NOFOLLOW)
	})
	return uint32(st.Mode), err
}

// FileKind names the type of file of st_mode mode for a person ("a FIFO (named pipe)", "a
// socket"…); the change ledger words its notes with it too.
func FileKind(mode uint32) string {
	switch mode & unix.S_IFMT {
	case unix.S_IFIFO:
		return "a FIFO (named pipe)"
	case unix.S_IFCHR:
		return "a character device"
	case unix.S_IFBLK:
		return "a block device"
	case unix.S_IFSOCK:
		return "a socket"
	case unix.S_IFDIR:
		return "a folder"
	case unix.S_IFLNK:
		return "a symbolic link"
	case unix.S_IFREG:
		return "a regular file"
	}
	return "a special file"
}
