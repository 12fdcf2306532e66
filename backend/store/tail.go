package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
)

// SessionTail is Session for the end of a transcript: the session, its turns from the first
// turn of the entries returned on, its last `limit` entries in seq order, and how many entries
// come before them. Opening a long saved session reads this first, so what the person sees
// first (the end) costs the same for 100 entries as for 100,000; Session reads the rest.
// ErrNotFound when the session does not exist.
func (s *Store) SessionTail(ctx context.Context, id string, limit int) (Session, []Turn, []Entry, int, error) {
	sess, turns, entries, earlier, err := s.readSessionTail(ctx, id, limit)
	if err != nil {
		return Session{}, nil, nil, 0, fmt.Errorf("read the end of session %q: %w", id, err)
	}
	return sess, turns, entries, earlier, nil
}

func (s *Store) readSessionTail(ctx context.Context, id string, limit int) (Session, []Turn, []Entry, int, error) {
	var sess Session
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return sess, nil, nil, 0, err
	}
	defer tx.Rollback()
	err = scanSession(tx.QueryRowContext(ctx, `SELECT `+sessionColumns+` FROM sessions s
		WHERE s.id = ?`, id), &sess)
	if errors.Is(err, sql.ErrNoRows) {
		return sess, nil, nil, 0, ErrNotFound
	}
	if err != nil {
		return sess, nil, nil, 0, err
	}
	var total int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM entries WHERE session_id = ?`, id).Scan(&total); err != nil {
		return sess, nil, nil, 0, err
	}
	rows, err := tx.QueryContext(ctx, `SELECT `+entryColumns+` FROM entries
		WHERE session_id = ? ORDER BY seq DESC, id DESC LIMIT ?`, id, max(limit, 0))
	if err != nil {
		return sess, nil, nil, 0, err
	}
	entries, err := scanEntries(id, rows)
	if err != nil {
		return sess, nil, nil, 0, err
	}
	slices.Reverse(entries)
	turns, err := readTurns(ctx, tx, id)
	if err != nil {
		return sess, nil, nil, 0, err
	}
	if earlier := total - len(entries); earlier > 0 && len(entries) > 0 {
		// Turns that ended before the first entry shown have nothing to end in this part.
		first := entries[0].Turn
		turns = slices.DeleteFunc(turns, func(t Turn) bool { return t.Turn < first })
	}
	return sess, turns, entries, total - len(entries), nil
}
