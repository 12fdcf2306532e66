package store

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
)

// Part is a run of a session's entries in seq order (SessionPart).
type Part struct {
	Session Session
	// Turns are those the entries belong to (all of the session's when it has no entry).
	Turns   []Turn
	Entries []Entry
	// From is the position of Entries[0] among the session's entries (0: the first one).
	From int
	// Total is how many entries the session has.
	Total int
}

// SessionPart reads `limit` of a session's entries from position `from` in seq order, or its
// last `limit` when from is negative, with the turns they belong to. Opening a long saved
// session reads its end first, then the earlier parts, so what the person sees first (the end)
// costs the same for 100 entries as for 100,000, and no step holds the page for long.
// ErrNotFound when the session does not exist.
func (s *Store) SessionPart(ctx context.Context, id string, from, limit int) (Part, error) {
	p, err := s.readSessionPart(ctx, id, from, max(limit, 0))
	if err != nil {
		return Part{}, fmt.Errorf("read entries of session %q: %w", id, err)
	}
	return p, nil
}

func (s *Store) readSessionPart(ctx context.Context, id string, from, limit int) (Part, error) {
	var p Part
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return p, err
	}
	defer tx.Rollback()
	if p.Session, err = s.readSessionRow(ctx, tx, id); err != nil {
		return p, err
	}
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM entries WHERE session_id = ?`, id).Scan(&p.Total); err != nil {
		return p, err
	}
	if from < 0 {
		from = max(0, p.Total-limit)
	}
	p.From = min(from, p.Total)
	// Both orders walk the entries_seq index; the end is read backwards so that it costs the
	// same however long the session is.
	q := `SELECT ` + entryColumns + ` FROM entries e WHERE e.session_id = ? ORDER BY e.seq, e.id LIMIT ? OFFSET ?`
	args := []any{id, limit, p.From}
	reversed := p.From > 0 && p.From+limit >= p.Total
	if reversed {
		q = `SELECT ` + entryColumns + ` FROM entries e WHERE e.session_id = ? ORDER BY e.seq DESC, e.id DESC LIMIT ?`
		args = []any{id, p.Total - p.From}
	}
	rows, err := tx.QueryContext(ctx, q, args...)
	if err != nil {
		return p, err
	}
	if p.Entries, err = scanEntries(id, rows); err != nil {
		return p, err
	}
	if reversed {
		slices.Reverse(p.Entries)
	}
	if p.Turns, err = readTurns(ctx, tx, id); err != nil {
		return p, err
	}
	if n := len(p.Entries); n > 0 {
		first, last := p.Entries[0].Turn, p.Entries[n-1].Turn
		if p.From+n < p.Total {
			// Not the end: a later part shows the turn ends of its own entries.
			p.Turns = slices.DeleteFunc(p.Turns, func(t Turn) bool { return t.Turn < first || t.Turn > last })
		} else {
			p.Turns = slices.DeleteFunc(p.Turns, func(t Turn) bool { return t.Turn < first })
		}
	}
	return p, nil
}
