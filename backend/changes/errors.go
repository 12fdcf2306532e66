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
