//go:build unix

package changes

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/sys/unix"

	"agentdesk/backend/acp/fsys"
)

// A revert looks at the disk only through a chain of descriptors opened from the folder down,
// one name at a time with O_NOFOLLOW: no symbolic link is followed, not even one that stays in
// the folder, and a folder swapped meanwhile cannot redirect what is read or written. Nothing is
// opened that could block (a FIFO, a device): the type is read first with fstatat, then checked
// again with fstat on what was opened.

// dirFlags open a folder on the way: never a link, never anything but a folder (the snapshot's
// readFlags, open.go, with O_DIRECTORY).
const dirFlags = readFlags | unix.O_DIRECTORY

// kindOther is what is on disk that a revert never touches: a FIFO, socket or device.
const kindOther = 'o'

// onDisk is what one path beneath a folder is now, read through its descriptor chain.
type onDisk struct {
	kind  byte   // 0: absent; kindFile, kindExec, kindLink, kindDir or kindOther
	mode  uint32 // st_mode
	ino   uint64
	nlink uint64
	size  int64
	mtime int64 // unix nanoseconds
	data  []byte
	big   bool   // a file over the size cap: data is not read
	above string // not "": a folder above it is not a plain folder now (says what it is)
}

// parent is the open folder holding a target: fd, and the target's name in it.
type parent struct {
	fd   int
	name string
}

func (p *parent) close() {
	if p.fd >= 0 {
		unix.Close(p.fd)
	}
}

// openParent opens the folder holding rel (slash path) beneath folder root, name by name. With
// create, missing folders are made (0755). A missing folder without create gives fd -1; a name
// on the way that is not a folder gives fd -1 and above saying what it is.
func openParent(root, rel string, create bool) (p parent, above string, err error) {
	fd, err := unix.Open(root, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return parent{fd: -1}, "", &os.PathError{Op: "open", Path: root, Err: err}
	}
	names := strings.Split(rel, "/")
	for i, name := range names[:len(names)-1] {
		next, err := unix.Openat(fd, name, dirFlags, 0)
		if err == unix.ENOENT && create {
			if err = unix.Mkdirat(fd, name, 0o755); err == nil || err == unix.EEXIST {
				next, err = unix.Openat(fd, name, dirFlags, 0)
			}
		}
		if err != nil {
			kind := ""
			var st unix.Stat_t
			if serr := unix.Fstatat(fd, name, &st, unix.AT_SYMLINK_NOFOLLOW); serr == nil && uint32(st.Mode)&unix.S_IFMT != unix.S_IFDIR {
				kind = fsys.FileKind(uint32(st.Mode))
			}
			unix.Close(fd)
			switch {
			case kind != "":
				return parent{fd: -1}, fmt.Sprintf("%s, a folder above it, is %s now", strings.Join(names[:i+1], "/"), kind), nil
			case err == unix.ENOENT:
				return parent{fd: -1}, "", nil
			}
			return parent{fd: -1}, "", &os.PathError{Op: "open", Path: strings.Join(names[:i+1], "/"), Err: err}
		}
		unix.Close(fd)
		fd = next
	}
	return parent{fd: fd, name: names[len(names)-1]}, "", nil
}

// lookAt reads what name in folder dir is now, whatever it is; a regular file's content is read
// up to max bytes (over it: big, not read), through openAt (open.go), so that a file swapped
// for a FIFO or a link since its stat is refused, never read.
func lookAt(dir int, name string, max int64) (onDisk, error) {
	st, err := statAt(dir, name)
	switch {
	case err == unix.ENOENT:
		return onDisk{}, nil
	case err != nil:
		return onDisk{}, err
	}
	d := statOf(st)
	switch d.kind {
	case kindLink:
		buf := make([]byte, unix.PathMax)
		n, err := unix.Readlinkat(dir, name, buf)
		if err != nil {
			return onDisk{}, err
		}
		d.data = buf[:n]
		return d, nil
	case kindFile, kindExec:
	default:
		return d, nil
	}
	if d.size > max {
		d.big = true
		return d, nil
	}
	f, fst, err := openAt(dir, name, unix.S_IFREG)
	if err != nil {
		return onDisk{}, err
	}
	defer f.Close()
	if got := statOf(fst); got.kind != d.kind || got.ino != d.ino {
		return onDisk{}, errors.New("it was replaced while it was read")
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return onDisk{}, err
	}
	if int64(len(data)) > max {
		d.big = true
		return d, nil
	}
	d.data = data
	return d, nil
}

// statOf is what a stat says of a file, its kind as a tree entry's.
func statOf(st *unix.Stat_t) onDisk {
	d := onDisk{mode: uint32(st.Mode), ino: st.Ino, nlink: uint64(st.Nlink), size: st.Size, mtime: st.Mtim.Nano()}
	switch uint32(st.Mode) & unix.S_IFMT {
	case unix.S_IFREG:
		d.kind = kindFile
		if uint32(st.Mode)&0o111 != 0 {
			d.kind = kindExec
		}
	case unix.S_IFLNK:
		d.kind = kindLink
	case unix.S_IFDIR:
		d.kind = kindDir
	default:
		d.kind = kindOther
	}
	return d
}

// readPath reads rel beneath folder root as it is now (see lookAt).
func readPath(root, rel string, max int64) (onDisk, error) {
	p, above, err := openParent(root, rel, false)
	if err != nil || p.fd < 0 {
		return onDisk{above: above}, err
	}
	defer p.close()
	return lookAt(p.fd, p.name, max)
}

// matches says whether what is on disk holds what entry e (nil: absent) records.
func (d *onDisk) matches(e *entry) bool {
	switch {
	case e == nil || d.kind == 0:
		return e == nil && d.kind == 0 && d.above == ""
	case d.kind != e.kind || d.big != e.big:
		return false
	case e.big:
		return d.size == e.size && d.mtime == e.mtime && e.mtime != 0
	}
	return hashOf(d.data) == e.hash
}

// foreignLink says whether d is a regular file with other names (hard links) that the snapshot
// of e did not see: another inode than e's, shared with a name elsewhere, maybe outside the
// folder.
func (d *onDisk) foreignLink(e *entry) bool {
	return (d.kind == kindFile || d.kind == kindExec) && d.nlink > 1 && (e == nil || e.ino != d.ino)
}

// sameFile says whether d and now are the same thing on disk (both absent, or one inode of one
// kind): what Apply checks again just before it replaces a file.
func (d *onDisk) sameFile(now onDisk) bool {
	return d.kind == now.kind && (d.kind == 0 || d.ino == now.ino && d.nlink == now.nlink)
}
