//go:build unix

package store

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"
)

// ownerLock is the flock on one session's lease file. A nil f: flock is unavailable there, and
// only the Store's own map guards the session.
type ownerLock struct {
	f    *os.File
	path string
}

// ownerPath is the lease file of session id: its name is a hash, whatever characters the id has.
func ownerPath(dbPath, id string) string {
	sum := sha256.Sum256([]byte(id))
	return filepath.Join(dbPath+".owners", hex.EncodeToString(sum[:16]))
}

// lockOwner takes the lease file of session id exclusively and writes rec into it. When another
// open file holds it (another process, or another Store of this one) it returns a nil lock and
// what the file holds. stale reports a file left by an owner that died: a clean release removes
// the file, under the lock, so one found with a record in it was never released.
func lockOwner(dbPath, id string, rec []byte) (l *ownerLock, held []byte, stale bool, err error) {
	path := ownerPath(dbPath, id)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, nil, false, fmt.Errorf("create the folder of session leases: %w", err)
	}
	// A releaser removes the file while it holds the lock: a lock taken on a file that is no
	// longer at path guards nothing, so take the new one. Each round means another process
	// released and claimed in between; a few rounds settle it.
	for range 16 {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW, 0o600)
		if err != nil {
			return nil, nil, false, fmt.Errorf("open the session's lease: %w", err)
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			if errors.Is(err, syscall.EWOULDBLOCK) {
				held, _ = io.ReadAll(io.LimitReader(f, 4096))
				f.Close()
				return nil, held, false, nil
			}
			f.Close() // no flock on this filesystem (some network mounts)
			return &ownerLock{}, nil, false, nil
		}
		var open, named syscall.Stat_t
		if syscall.Fstat(int(f.Fd()), &open) != nil || syscall.Stat(path, &named) != nil ||
			open.Dev != named.Dev || open.Ino != named.Ino {
			f.Close()
			continue
		}
		prev, err := io.ReadAll(io.LimitReader(f, 4096))
		if err == nil {
			err = f.Truncate(0)
		}
		if err == nil {
			_, err = f.WriteAt(rec, 0)
		}
		if err != nil {
			f.Close()
			return nil, nil, false, fmt.Errorf("write the session's lease: %w", err)
		}
		return &ownerLock{f: f, path: path}, nil, len(prev) > 0, nil
	}
	return nil, nil, false, errors.New("its lease kept changing hands: try again")
}

// release removes the lease file, then drops the lock: a claim that opened the file before
// the removal finds it gone once it gets the lock, and takes a new one.
func (l *ownerLock) release() error {
	if l.f == nil {
		return nil
	}
	err := os.Remove(l.path)
	return errors.Join(err, l.f.Close())
}
