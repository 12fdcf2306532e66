package store

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"time"
)

// SessionCopy is the whole of a session as the app holds it in memory: its row, its turns and
// its transcript. SaveCopy writes it over what the database has.
type SessionCopy struct {
	// Session is inserted if the row is missing. An existing row keeps its title when
	// KeepTitle is set (the user named it) and its created_at; the rest is replaced.
	Session   Session
	KeepTitle bool
	// Turns are inserted or completed: an existing turn keeps its times unless it was still
	// open and the copy's is ended.
	Turns []Turn
	// Entries are inserted or replaced whole; saved entries missing from the copy are kept.
	Entries []Entry
}

// SaveCopy queues rewriting a whole session, in one transaction and without waiting for the
// batch delay. It is idempotent, so the app calls it to put back what failed batches lost
// (disk full, read-only) once the database takes writes again: ops queued after it apply on
// top of the copy, so the caller must take the copy in order with its other writes. The
// journal (Message) and permission rows are not part of a copy. Bodies are copied.
func (w *Writer) SaveCopy(c SessionCopy) {
	c.Session.CreatedAt = orNow(c.Session.CreatedAt, w.now)
	c.Session.UpdatedAt = orNow(c.Session.UpdatedAt, w.now)
	now := w.now()
	c.Turns = append([]Turn(nil), c.Turns...)
	for i := range c.Turns {
		c.Turns[i].SessionID = c.Session.ID
		c.Turns[i].StartedAt = orNow(c.Turns[i].StartedAt, func() time.Time { return now })
	}
	c.Entries = append([]Entry(nil), c.Entries...)
	for i := range c.Entries {
		c.Entries[i].SessionID = c.Session.ID
		c.Entries[i].Body = bytes.Clone(c.Entries[i].Body)
	}
	w.enqueue(&saveCopyOp{c}, true)
}

type saveCopyOp struct{ c SessionCopy }

func (o *saveCopyOp) String() string {
	return fmt.Sprintf("save a copy of session %q (%d turns, %d entries)", o.c.Session.ID, len(o.c.Turns), len(o.c.Entries))
}

func (o *saveCopyOp) exec(ctx context.Context, b *batchTx) error {
	s := o.c.Session
	if _, err := b.exec(ctx, `INSERT INTO sessions (id, agent_id, agent_name, agent_session_id,
		cwd, title, outcome, created_at, updated_at, dirs, agent_cmd) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?11, ?12)
		ON CONFLICT (id) DO UPDATE SET
		agent_session_id = CASE WHEN ?4 = '' THEN agent_session_id ELSE ?4 END,
		title = CASE WHEN ?10 THEN title ELSE ?6 END,
		outcome = ?7, updated_at = max(updated_at, ?9)`,
		s.ID, s.AgentID, s.AgentName, s.AgentSessionID, s.Cwd, s.Title, s.Outcome,
		millis(s.CreatedAt), millis(s.UpdatedAt), o.c.KeepTitle, joinDirs(s.Dirs), s.AgentCmd); err != nil {
		return err
	}
	for _, t := range o.c.Turns {
		var ended sql.NullInt64
		if !t.EndedAt.IsZero() {
			ended = sql.NullInt64{Int64: millis(t.EndedAt), Valid: true}
		}
		if _, err := b.exec(ctx, `INSERT INTO turns (session_id, turn, prompt, started_at,
			ended_at, stop_reason, error) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
			ON CONFLICT (session_id, turn) DO UPDATE SET prompt = ?3,
			stop_reason = CASE WHEN ended_at IS NULL AND ?5 IS NOT NULL THEN ?6 ELSE stop_reason END,
			error = CASE WHEN ended_at IS NULL AND ?5 IS NOT NULL THEN ?7 ELSE error END,
			ended_at = coalesce(ended_at, ?5)`,
			t.SessionID, t.Turn, t.Prompt, millis(t.StartedAt), ended, t.StopReason, t.Error); err != nil {
			return err
		}
	}
	for _, e := range o.c.Entries {
		if err := upsertEntry(ctx, b, e); err != nil {
			return err
		}
	}
	return nil
}
