package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// ErrReadOnly is returned by the store's changing methods on a store opened with OpenReadOnly.
var ErrReadOnly = errors.New("the history was opened read-only")

// OpenReadOnly opens the history database at path for reading only: for listing and printing a
// copy the user cannot write (a read-only disk or file, another user's file). It creates,
// migrates and marks nothing, and takes no lock; the file may be changed by a writer meanwhile
// (SQLite's own locking keeps reads consistent) except when even its -shm cannot be written,
// where the file is read as immutable. When no other Store holds the file, what a crashed
// process left live reads as Open would have settled it (settle.go): interrupted, or the last
// stop reason. A file from an older agentdesk is refused with advice,
// since reading it needs the migrations. Writer returns nil and the write methods of the store
// must not be called. The caller must Close the store.
func OpenReadOnly(ctx context.Context, path string) (*Store, error) {
	if path == "" {
		return nil, fmt.Errorf("open history database read-only: empty path")
	}
	if err := checkHeader(path); err != nil {
		return nil, openError(path, err)
	}
	var firstErr error
	for _, mode := range []string{"mode=ro", "immutable=1"} {
		db, err := openRO(ctx, path, mode)
		if err == nil {
			return &Store{path: path, scoreHits: defaultScoreHits, db: db, settle: !heldByOthers(path)}, nil
		}
		if firstErr == nil {
			firstErr = err
		}
	}
	return nil, openError(path, firstErr)
}

// openRO opens path with the URI parameter mode and checks that it is an up-to-date agentdesk
// database.
func openRO(ctx context.Context, path, mode string) (*sql.DB, error) {
	db, err := sql.Open("sqlite", fileURI(path)+"?"+mode+"&_pragma=busy_timeout(5000)&_pragma=query_only(1)")
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	err = checkIdentity(ctx, db)
	if err == nil {
		err = checkCurrent(ctx, db)
	}
	if err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// checkCurrent refuses a file whose schema is older than this agentdesk's: it cannot be
// migrated without writing it.
func checkCurrent(ctx context.Context, db *sql.DB) error {
	var version int
	if err := db.QueryRowContext(ctx, `SELECT user_version FROM pragma_user_version`).Scan(&version); err != nil {
		return fmt.Errorf("read schema version: %w", err)
	}
	ms, err := migrations()
	if err != nil {
		return err
	}
	if version < len(ms) {
		return fmt.Errorf("written by an older agentdesk (schema version %d; this one needs %d): "+
			"open it once with write access to upgrade it", version, len(ms))
	}
	return nil
}
