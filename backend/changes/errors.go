package changes

import "errors"

// ErrNoSnapshot: the ledger has no snapshot for what was asked (a turn saved before the
// ledger existed, or one whose recording failed).
var ErrNoSnapshot = errors.New("no snapshot of the session's folders for this turn")

// ErrMissingObject: content the ledger recorded is gone from its store (deleted by hand, or a
// crash before it reached the disk).
var ErrMissingObject = errors.New("the ledger's copy of the file is missing")

// ErrTooManyFiles: a folder holds more files than a snapshot records (Options.MaxFiles): it is
// more than a project, and recording it would hold every turn up.
var ErrTooManyFiles = errors.New("the folder holds too many files to record")

// ErrSnapshotStuck: a snapshot's walk did not return after its time ran out: a system call in
// it does not answer (a network or user-space file system that hangs). It was left behind.
var ErrSnapshotStuck = errors.New("reading the folder is stuck in a call the file system does not answer; check that the folder's file system responds")

// ErrSnapshotBusy: an earlier snapshot of the folder has not finished (one stuck in a system
// call, see ErrSnapshotStuck) and this one's time ran out waiting for it.
var ErrSnapshotBusy = errors.New("an earlier snapshot of the folder has not finished; check that the folder's file system responds")
