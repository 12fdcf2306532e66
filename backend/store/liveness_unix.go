//go:build unix

package store

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// liveness is an flock on "<db>.lock" that every open Store holds shared until Close. The
// kernel drops it when a process dies, even by SIGKILL, so a Store that can take it
// exclusively knows no other agentdesk process has the database open: only then are open
// turns crash leftovers rather than another process's running turns.
type liveness struct {
	f           *os.File
	unsupported bool
}

// acquireLiveness takes the lock, exclusively if it can (alone reports that). The caller
// must call shared once it has finished its exclusive work, and release at Close.
func acquireLiveness(dbPath string) (l *liveness, alone bool, err error) {
	f, err := os.OpenFile(dbPath+".lock", os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, false, fmt.Errorf("open lock file: %w", err)
	}
	l = &liveness{f: f}
	err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if err == nil {
		return l, true, nil
	}
	if !errors.Is(err, syscall.EWOULDBLOCK) {
		// No flock on this filesystem (some network mounts): behave as if alone.
		l.unsupported = true
		return l, true, nil
	}
	// Another Store has it open; wait out its exclusive phase (migrations), if it is in one.
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_SH); err != nil {
		f.Close()
		return nil, false, fmt.Errorf("lock %s: %w", f.Name(), err)
	}
	return l, false, nil
}

// shared downgrades an exclusive lock so that other processes can open the database.
func (l *liveness) shared() error {
	if l.unsupported {
		return nil
	}
	if err := syscall.Flock(int(l.f.Fd()), syscall.LOCK_SH); err != nil {
		return fmt.Errorf("lock %s: %w", l.f.Name(), err)
	}
	return nil
}

// release drops the lock.
func (l *liveness) release() error { return l.f.Close() }

// heldByOthers reports whether another Store holds the liveness flock of the database at
// dbPath, without creating anything: a lock file that is missing or cannot be opened means no
// Store could have opened the database (Open creates it first). Where flock is unavailable it
// reports true, so nothing is settled on a guess.
func heldByOthers(dbPath string) bool {
	f, err := os.Open(dbPath + ".lock")
	if err != nil {
		return false
	}
	defer f.Close() // drops the probe's lock, if it got one
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil
}
