package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
)

// rowScanner is *sql.Row or *sql.Rows.
type rowScanner interface{ Scan(dest ...any) error }

// scanSession scans Store.columns() followed by extra destinations.
func scanSession(r rowScanner, s *Session, extra ...any) error {
	var created, updated int64
	var dirs string
	dest := append([]any{&s.ID, &s.AgentID, &s.AgentName, &s.AgentSessionID, &s.Cwd, &dirs, &s.Title,
		&s.Outcome, &created, &updated, &s.AgentCmd, &s.ParentID, &s.Project}, extra...)
	if err := r.Scan(dest...); err != nil {
		return err
	}
	s.CreatedAt, s.UpdatedAt = fromMillis(created, true), fromMillis(updated, true)
	s.Dirs = splitDirs(dirs)
	return nil
}

// ListSessions returns session summaries for the history list. With an empty query (or one
// with no letters or digits) it lists the most recently updated first; otherwise it searches
// entry titles and texts and session titles for sessions holding every word of the query
// (words of three characters or more as prefixes, shorter ones as whole words) in one entry
// (in one 32 KiB piece of an entry streamed longer than that, see pieces.go) or in the title,
// best match first, with a Snippet. Only the 2000 newest matching entries
// are scored (see search): sessions matched only by older entries come after the scored
// ones, most recently updated first, without a Snippet; so a word found all over the
// history favours recent sessions, and a search costs about the same on any history size.
// Any query text is accepted: it is never parsed as FTS syntax. limit <= 0 means no limit.
// It reads committed data only and blocks while the writer commits a batch.
func (s *Store) ListSessions(ctx context.Context, query string, limit int) ([]Summary, error) {
	if limit <= 0 {
		limit = -1 // SQLite: no limit
	}
	var (
		out []Summary
		err error
	)
	if match := matchExpr(query); match != "" {
		out, err = s.search(ctx, match, limit)
	} else {
		out, err = s.listRecent(ctx, limit)
	}
	if err != nil {
		return nil, fmt.Errorf("list sessions (query %q): %w", query, err)
	}
	return out, nil
}

// listRecent lists sessions, most recently updated first.
func (s *Store) listRecent(ctx context.Context, limit int) ([]Summary, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+s.columns()+`,
		(SELECT count(*) FROM turns t WHERE t.session_id = s.id)
		FROM sessions s ORDER BY s.updated_at DESC, s.id LIMIT ?`, limit)
	if err != nil {
		return nil, err
	}
	return scanSummaries(rows)
}

// Session returns one session with its turns (by number) and entries (by seq), read in one
// snapshot. It returns an error wrapping ErrNotFound if there is no such session.
func (s *Store) Session(ctx context.Context, id string) (Session, []Turn, []Entry, error) {
	sess, turns, entries, err := s.readSession(ctx, id)
	if err != nil {
		return Session{}, nil, nil, fmt.Errorf("read session %q: %w", id, err)
	}
	return sess, turns, entries, nil
}

func (s *Store) readSession(ctx context.Context, id string) (Session, []Turn, []Entry, error) {
	var sess Session
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true}) // a plain (deferred) BEGIN
	if err != nil {
		return sess, nil, nil, err
	}
	defer tx.Rollback()
	if sess, err = s.readSessionRow(ctx, tx, id); err != nil {
		return sess, nil, nil, err
	}
	turns, err := readTurns(ctx, tx, id)
	if err != nil {
		return sess, nil, nil, err
	}
	entries, err := readEntries(ctx, tx, id)
	return sess, turns, entries, err
}

// readSessionRow reads session id's own row; ErrNotFound when there is none.
func (s *Store) readSessionRow(ctx context.Context, tx *sql.Tx, id string) (Session, error) {
	var sess Session
	err := scanSession(tx.QueryRowContext(ctx, `SELECT `+s.columns()+` FROM sessions s
		WHERE s.id = ?`, id), &sess)
	if errors.Is(err, sql.ErrNoRows) {
		return sess, ErrNotFound
	}
	return sess, err
}

func readTurns(ctx context.Context, tx *sql.Tx, id string) ([]Turn, error) {
	rows, err := tx.QueryContext(ctx, `SELECT turn, prompt, started_at, ended_at, stop_reason,
		error, receipt FROM turns WHERE session_id = ? ORDER BY turn`, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var turns []Turn
	for rows.Next() {
		t := Turn{SessionID: id}
		var started int64
		var ended sql.NullInt64
		var receipt string
		if err := rows.Scan(&t.Turn, &t.Prompt, &started, &ended, &t.StopReason, &t.Error, &receipt); err != nil {
			return nil, err
		}
		if receipt != "" {
			t.Receipt = []byte(receipt)
		}
		t.StartedAt, t.EndedAt = fromMillis(started, true), fromMillis(ended.Int64, ended.Valid)
		turns = append(turns, t)
	}
	return turns, rows.Err()
}

func readEntries(ctx context.Context, tx *sql.Tx, id string) ([]Entry, error) {
	rows, err := tx.QueryContext(ctx, `SELECT `+entryColumns+` FROM entries e
		WHERE e.session_id = ? ORDER BY e.seq, e.id`, id)
	if err != nil {
		return nil, err
	}
	return scanEntries(id, rows)
}

// entryColumns are what scanEntries reads, in its order, from entries aliased e; the text is
// whole (entryText).
const entryColumns = `e.entry_id, e.turn, e.seq, e.kind, e.status, e.title, ` + entryText + `, e.body`

// scanEntries reads session id's entry rows (SELECT entryColumns) and closes them.
func scanEntries(id string, rows *sql.Rows) ([]Entry, error) {
	defer rows.Close()
	var entries []Entry
	for rows.Next() {
		e := Entry{SessionID: id}
		if err := rows.Scan(&e.EntryID, &e.Turn, &e.Seq, &e.Kind, &e.Status, &e.Title, &e.Text,
			&e.Body); err != nil {
			return nil, err
		}
		entries = append(entries, e)
	}
	return entries, rows.Err()
}

// Messages returns a session's raw JSON-RPC journal in seq order (empty if the session has
// none or does not exist).
func (s *Store) Messages(ctx context.Context, sessionID string) ([]Message, error) {
	return s.messages(ctx, sessionID, `SELECT direction, method, json, at, n, at_steps FROM messages
		WHERE session_id = ?1 ORDER BY seq`)
}

// JournalEnds returns the first head and the last tail messages of a session's journal, in seq
// order, none twice (all of them when there are no more than head+tail): the handshake and what
// came last, for a diagnostic bundle, without reading a long journal whole. A row holds one
// message at least, so the first head rows and the last tail rows hold them.
func (s *Store) JournalEnds(ctx context.Context, sessionID string, head, tail int) ([]Message, error) {
	var first, last int64
	err := s.db.QueryRowContext(ctx, `SELECT coalesce(min(seq), 1), coalesce(max(seq + n - 1), 0) FROM messages
		WHERE session_id = ?`, sessionID).Scan(&first, &last)
	if err != nil {
		return nil, fmt.Errorf("read messages of session %q: %w", sessionID, err)
	}
	if last-first+1 <= int64(head+tail) {
		return s.Messages(ctx, sessionID)
	}
	ends, err := s.messages(ctx, sessionID, `SELECT direction, method, json, at, n, at_steps FROM messages
		WHERE session_id = ?1 AND (seq IN (SELECT seq FROM messages WHERE session_id = ?1 ORDER BY seq LIMIT ?2)
			OR seq IN (SELECT seq FROM messages WHERE session_id = ?1 ORDER BY seq DESC LIMIT ?3))
		ORDER BY seq`, head, tail)
	if err != nil {
		return nil, err
	}
	// ends holds the head rows' messages, then the tail rows': at least head, then tail.
	out := slices.Clip(ends[:min(head, len(ends))])
	return append(out, ends[max(len(ends)-tail, len(out)):]...), nil
}

// messages runs query (its ?1 the session's id, then args), which selects direction, method,
// json, at, n and at_steps, and reads the messages of the rows it selects.
func (s *Store) messages(ctx context.Context, sessionID, query string, args ...any) ([]Message, error) {
	runs, err := queryAll(ctx, s.db, fmt.Sprintf("read messages of session %q", sessionID), func(rows *sql.Rows) ([]Message, error) {
		m := Message{SessionID: sessionID}
		var at int64
		var n int
		var steps string
		if err := rows.Scan(&m.Direction, &m.Method, &m.JSON, &at, &n, &steps); err != nil {
			return nil, err
		}
		m.At = fromMillis(at, true)
		return unpackRun(m, n, steps), nil
	}, query, append([]any{sessionID}, args...)...)
	if err != nil {
		return nil, err
	}
	return slices.Concat(runs...), nil
}

// DeleteSession deletes a session with its turns, entries, messages, permissions and search
// index rows, and its subagent sessions (Session.ParentID) at every depth with theirs. It goes through the writer, after every operation queued before it, and blocks
// until it is committed (or ctx is done; the deletion still happens). It returns an error
// wrapping ErrNotFound if there is no such session, or ErrClosed after Close.
func (s *Store) DeleteSession(ctx context.Context, id string) error {
	o := &deleteSessionOp{id: id, reply: newReply()}
	return s.await(ctx, o, &o.reply)
}

// RenameSession sets a session's title; the title search index follows. It leaves
// updated_at alone, so a rename does not move the session up the history list. Like
// DeleteSession it goes through the writer, after every operation queued before it, and
// blocks until it is committed (or ctx is done; the rename still happens). It returns an
// error wrapping ErrNotFound if there is no such session, or ErrClosed after Close.
func (s *Store) RenameSession(ctx context.Context, id, title string) error {
	o := &renameSessionOp{id: id, title: title, reply: newReply()}
	return s.await(ctx, o, &o.reply)
}

// await queues o to be committed at once and waits for the result r receives.
func (s *Store) await(ctx context.Context, o op, r *reply) error {
	if s.w == nil {
		return fmt.Errorf("%s: %w", o, ErrReadOnly)
	}
	if !s.w.tryEnqueue(o, true) {
		return fmt.Errorf("%s: %w", o, ErrClosed)
	}
	select {
	case err := <-r.res:
		return err
	case <-ctx.Done():
		return fmt.Errorf("%s: %w", o, ctx.Err())
	}
}

// scanSummaries reads rows of sessionColumns plus a turn count, and closes them.
func scanSummaries(rows *sql.Rows) ([]Summary, error) {
	defer rows.Close()
	var out []Summary
	for rows.Next() {
		var sum Summary
		if err := scanSession(rows, &sum.Session, &sum.Turns); err != nil {
			return nil, err
		}
		out = append(out, sum)
	}
	return out, rows.Err()
}
