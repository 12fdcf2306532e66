package store

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"syscall"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// openError wraps an error of Open once: it names the file and, when the cause is known,
// says what the user can do about it.
func openError(path string, err error) error {
	if damaged(err) && !errors.Is(err, errInvalid) {
		err = fmt.Errorf("%w: %w", errInvalid, err)
	}
	var hint string
	switch {
	case errors.Is(err, errInvalid):
		hint = "move the file away, or use another history file (AGENTDESK_DB)"
	case isNewer(err):
		hint = "open it with the newer agentdesk, or use another history file"
	case diskFull(err), busy(err):
		hint = Advice(err) + " and try again"
	case denied(err):
		hint = fmt.Sprintf("agentdesk must be able to read and write this file and to create "+
			"files next to it (-wal, -shm, .lock): check the permissions of the file and of %s, "+
			"and that the disk is not mounted read-only, or use another history file (AGENTDESK_DB)",
			filepath.Dir(path))
	default:
		return fmt.Errorf("open history database %q: %w", path, err)
	}
	return fmt.Errorf("open history database %q: %w; %s", path, err, hint)
}

// lockedByAgentdesk is a busy error while other agentdesk processes have the database open.
type lockedByAgentdesk struct {
	pids []int
	err  error
}

func (e *lockedByAgentdesk) Error() string { return e.err.Error() }
func (e *lockedByAgentdesk) Unwrap() error { return e.err }

// explainBusy marks a busy error of the database at path with the other agentdesk processes
// that have it open, if any: then it is they, not "another program", that hold the lock.
func explainBusy(path string, err error) error {
	if err == nil || !busy(err) {
		return err
	}
	if pids := otherHolders(path); len(pids) > 0 {
		return &lockedByAgentdesk{pids: pids, err: err}
	}
	return err
}

// Damaged reports whether err says the history file is damaged. What to do then depends on
// who asks: the window sets a damaged file aside when it starts (OpenOrRecover), the command
// line does not.
func Damaged(err error) bool { return damaged(err) }

// Advice says what the user can do about a failed read or write of the history, for the
// causes a user can fix, or returns "". For a damaged file it only says so (see Damaged). The app shows it with write errors while it runs.
func Advice(err error) string {
	var held *lockedByAgentdesk
	switch {
	case diskFull(err):
		return "the disk is full: free some space"
	case denied(err):
		return "the history file cannot be written: check its permissions and that the disk is not read-only"
	case errors.As(err, &held):
		return fmt.Sprintf("another agentdesk (process %d: a window or a command) is writing to the history: "+
			"let it finish, or quit it", held.pids[0])
	case busy(err):
		return "another program keeps the database locked: close it"
	case damaged(err):
		return "the history file is damaged"
	case sqliteCode(err) == sqlite3.SQLITE_IOERR:
		return "the disk reported a write error: check that it has room and is healthy"
	}
	return ""
}

// busy reports whether another connection holds a lock SQLite gave up waiting for.
func busy(err error) bool {
	c := sqliteCode(err)
	return c == sqlite3.SQLITE_BUSY || c == sqlite3.SQLITE_LOCKED
}

// isNewer reports whether err says the file comes from a newer agentdesk.
func isNewer(err error) bool {
	var ne *newerError
	return errors.As(err, &ne)
}

// sqliteCode returns the primary SQLite result code in err's chain, or 0.
func sqliteCode(err error) int {
	var se *sqlite.Error
	if errors.As(err, &se) {
		return se.Code() & 0xff
	}
	return 0
}

// damaged reports whether SQLite found the file is not a database or is corrupt.
func damaged(err error) bool {
	c := sqliteCode(err)
	return c == sqlite3.SQLITE_NOTADB || c == sqlite3.SQLITE_CORRUPT
}

// diskFull reports whether err says there is no space left.
func diskFull(err error) bool {
	return sqliteCode(err) == sqlite3.SQLITE_FULL || errors.Is(err, syscall.ENOSPC)
}

// denied reports whether err says the file or its folder cannot be opened or written.
func denied(err error) bool {
	switch sqliteCode(err) {
	case sqlite3.SQLITE_READONLY, sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_PERM, sqlite3.SQLITE_AUTH:
		return true
	}
	return errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EROFS)
}
