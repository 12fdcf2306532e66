package hub

import (
	"errors"
	"fmt"
)

// The hub's refusals. Like the engine's (backend/acp/errors.go) they state what happened; the
// window and the command line say what to do about it, each for its own user.
var (
	// ErrNoLiveSession: Session with an id that is not live in this run (it has ended, it
	// belongs to an earlier run, or it never existed). See *NoLiveSessionError.
	ErrNoLiveSession = errors.New("no such live session")

	// ErrNoFolder: Start without a project folder.
	ErrNoFolder = errors.New("no project folder given")

	// ErrStarted: CancelStart on a session whose start has already ended.
	ErrStarted = errors.New("the session has already started")
)

// NoLiveSessionError is a live-session lookup that found nothing; errors.Is finds
// ErrNoLiveSession.
type NoLiveSessionError struct{ ID string }

var _ error = (*NoLiveSessionError)(nil)

// Error names the session.
func (e *NoLiveSessionError) Error() string {
	return fmt.Sprintf("no live session %s: it has ended or belongs to an earlier run", e.ID)
}

// Is reports ErrNoLiveSession.
func (e *NoLiveSessionError) Is(target error) bool { return target == ErrNoLiveSession }

// FolderError is a Start whose project folder is not an existing folder. Err is the file
// system's error (nil when the path names something else than a folder).
type FolderError struct {
	Path string // absolute, ~ expanded
	Err  error
}

var _ error = (*FolderError)(nil)

// Error names the folder.
func (e *FolderError) Error() string { return fmt.Sprintf("folder %q does not exist", e.Path) }

// Unwrap returns the file system's error.
func (e *FolderError) Unwrap() error { return e.Err }
