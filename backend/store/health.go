package store

import (
	"context"
	"fmt"
	"os"
)

// Health is what a diagnostic bundle says of the history file: where it is, how big, its schema
// version, how many sessions it holds and what SQLite's quick_check finds.
type Health struct {
	Path          string `json:"path"`
	Bytes         int64  `json:"bytes"`
	WALBytes      int64  `json:"walBytes"`
	SchemaVersion int    `json:"schemaVersion"`
	Sessions      int    `json:"sessions"`
	// QuickCheck is "ok", or the first problem PRAGMA quick_check reports (a damaged file).
	QuickCheck string `json:"quickCheck"`
}

// Health reads the history file's health. quick_check reads every page, so it takes about as
// long as reading the file once; it runs on a reader connection and never blocks the writer.
// A check that cannot run at all is an error; one that finds damage is a Health that says so.
func (s *Store) Health(ctx context.Context) (Health, error) {
	h := Health{Path: s.path}
	if st, err := os.Stat(s.path); err == nil {
		h.Bytes = st.Size()
	}
	if st, err := os.Stat(s.path + "-wal"); err == nil {
		h.WALBytes = st.Size()
	}
	err := s.db.QueryRowContext(ctx, `SELECT (SELECT user_version FROM pragma_user_version),
		(SELECT count(*) FROM sessions)`).Scan(&h.SchemaVersion, &h.Sessions)
	if err == nil {
		err = s.db.QueryRowContext(ctx, `PRAGMA quick_check(1)`).Scan(&h.QuickCheck)
	}
	if err != nil {
		return h, fmt.Errorf("check the history file %s: %w", s.path, err)
	}
	return h, nil
}
