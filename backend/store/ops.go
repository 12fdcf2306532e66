package store

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"
)

// CreateSession queues the insertion of a new session. A zero CreatedAt is the clock's now;
// a zero UpdatedAt is CreatedAt. An existing ID is a reported error.
func (w *Writer) CreateSession(s Session) {
	s.CreatedAt = orNow(s.CreatedAt, w.now)
	if s.UpdatedAt.IsZero() {
		s.UpdatedAt = s.CreatedAt
	}
	w.enqueue(&createSessionOp{s}, false)
}

// UpdateSession queues setting the agent's session id and/or the title of session id; a nil
// pointer leaves that column alone (the values are copied now). It also bumps updated_at to
// the clock's now (updated_at never moves back). A missing session is a reported error.
func (w *Writer) UpdateSession(id string, agentSessionID, title *string) {
	o := &updateSessionOp{id: id, at: w.now()}
	if agentSessionID != nil {
		o.agentSessionID = sql.NullString{String: *agentSessionID, Valid: true}
	}
	if title != nil {
		o.title = sql.NullString{String: *title, Valid: true}
	}
	w.enqueue(o, false)
}

// SetOutcome queues setting session id's outcome and bumping its updated_at to the clock's
// now. It is committed without waiting for the batch delay, synced to disk. A missing session
// is a reported error.
func (w *Writer) SetOutcome(id, outcome string) {
	w.enqueue(&setOutcomeOp{id: id, outcome: outcome, at: w.now()}, true)
}

// StartTurn queues the insertion of a turn (normally with a zero EndedAt: open). A zero
// StartedAt is the clock's now. It also bumps the session's updated_at to StartedAt.
func (w *Writer) StartTurn(t Turn) {
	t.StartedAt = orNow(t.StartedAt, w.now)
	w.enqueue(&startTurnOp{t}, false)
}

// EndTurn queues closing a turn with the agent's stop reason and error message (empty if
// none) at time at (zero: the clock's now), and bumps the session's updated_at. It is
// committed without waiting for the batch delay, with everything queued before it, and synced
// to disk: once a Flush queued after it returns nil, the turn survives a power loss. A missing
// turn is a reported error.
func (w *Writer) EndTurn(sessionID string, turn int, stopReason, errMsg string, at time.Time) {
	w.enqueue(&endTurnOp{sessionID: sessionID, turn: turn, stopReason: stopReason,
		errMsg: errMsg, at: orNow(at, w.now)}, true)
}

// SetReceipt queues saving a turn's receipt (the engine's Receipt as JSON, copied) after its
// EndTurn; it goes with the turn end's batch when queued before the Flush that follows it. A
// missing turn is a reported error.
func (w *Writer) SetReceipt(sessionID string, turn int, receipt []byte) {
	w.enqueue(&receiptOp{sessionID: sessionID, turn: turn, receipt: string(receipt)}, false)
}

// UpsertEntry queues inserting an entry, or replacing every column of the existing entry with
// the same (SessionID, EntryID). The engine always sends the full text. e.Body is copied, so
// the caller may reuse its buffer.
func (w *Writer) UpsertEntry(e Entry) {
	e.Body = bytes.Clone(e.Body)
	w.enqueue(&upsertEntryOp{e: e}, false)
}

// AppendText queues appending text to an existing entry's text, in order with the
// UpsertEntry calls for that entry. A missing entry is a reported error. Saving costs time
// linear in text, whatever the entry's length (see pieces.go).
func (w *Writer) AppendText(sessionID, entryID string, text string) {
	w.enqueue(&appendOp{sessionID: sessionID, entryID: entryID, parts: []string{text}}, false)
}

type createSessionOp struct{ s Session }

func (o *createSessionOp) String() string { return fmt.Sprintf("create session %q", o.s.ID) }

func (o *createSessionOp) exec(ctx context.Context, b *batchTx) error {
	s := o.s
	_, err := b.exec(ctx, `INSERT INTO sessions (id, agent_id, agent_name, agent_session_id,
		cwd, dirs, title, outcome, created_at, updated_at, agent_cmd, parent_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		s.ID, s.AgentID, s.AgentName, s.AgentSessionID, s.Cwd, joinDirs(s.Dirs), s.Title, s.Outcome,
		millis(s.CreatedAt), millis(s.UpdatedAt), s.AgentCmd, s.ParentID)
	return err
}

type updateSessionOp struct {
	id                    string
	agentSessionID, title sql.NullString
	at                    time.Time
}

func (o *updateSessionOp) String() string { return fmt.Sprintf("update session %q", o.id) }

func (o *updateSessionOp) exec(ctx context.Context, b *batchTx) error {
	return b.execOne(ctx, `UPDATE sessions SET agent_session_id = coalesce(?, agent_session_id),
		title = coalesce(?, title), updated_at = max(updated_at, ?) WHERE id = ?`,
		o.agentSessionID, o.title, millis(o.at), o.id)
}

type setOutcomeOp struct {
	id, outcome string
	at          time.Time
}

func (o *setOutcomeOp) syncs() {}

func (o *setOutcomeOp) String() string {
	return fmt.Sprintf("set outcome %q of session %q", o.outcome, o.id)
}

func (o *setOutcomeOp) exec(ctx context.Context, b *batchTx) error {
	return b.execOne(ctx, `UPDATE sessions SET outcome = ?, updated_at = max(updated_at, ?) WHERE id = ?`,
		o.outcome, millis(o.at), o.id)
}

const bumpSession = `UPDATE sessions SET updated_at = max(updated_at, ?) WHERE id = ?`

type startTurnOp struct{ t Turn }

func (o *startTurnOp) String() string {
	return fmt.Sprintf("start turn %d of session %q", o.t.Turn, o.t.SessionID)
}

func (o *startTurnOp) exec(ctx context.Context, b *batchTx) error {
	t := o.t
	var ended sql.NullInt64
	if !t.EndedAt.IsZero() {
		ended = sql.NullInt64{Int64: millis(t.EndedAt), Valid: true}
	}
	if _, err := b.exec(ctx, `INSERT INTO turns (session_id, turn, prompt, started_at, ended_at,
		stop_reason, error) VALUES (?, ?, ?, ?, ?, ?, ?)`, t.SessionID, t.Turn, t.Prompt,
		millis(t.StartedAt), ended, t.StopReason, t.Error); err != nil {
		return err
	}
	_, err := b.exec(ctx, bumpSession, millis(t.StartedAt), t.SessionID)
	return err
}

type endTurnOp struct {
	sessionID          string
	turn               int
	stopReason, errMsg string
	at                 time.Time
}

func (o *endTurnOp) syncs() {}

func (o *endTurnOp) String() string {
	return fmt.Sprintf("end turn %d of session %q", o.turn, o.sessionID)
}

func (o *endTurnOp) exec(ctx context.Context, b *batchTx) error {
	if err := b.execOne(ctx, `UPDATE turns SET ended_at = ?, stop_reason = ?, error = ?
		WHERE session_id = ? AND turn = ?`,
		millis(o.at), o.stopReason, o.errMsg, o.sessionID, o.turn); err != nil {
		return err
	}
	_, err := b.exec(ctx, bumpSession, millis(o.at), o.sessionID)
	return err
}

type receiptOp struct {
	sessionID string
	turn      int
	receipt   string
}

func (o *receiptOp) String() string {
	return fmt.Sprintf("save the receipt of turn %d of session %q", o.turn, o.sessionID)
}

func (o *receiptOp) exec(ctx context.Context, b *batchTx) error {
	return b.execOne(ctx, `UPDATE turns SET receipt = ? WHERE session_id = ? AND turn = ?`,
		o.receipt, o.sessionID, o.turn)
}

// upsertEntryOp may carry the text of AppendText calls folded into it (see coalesce).
type upsertEntryOp struct {
	e    Entry
	more []string
}

func (o *upsertEntryOp) addText(parts []string) { o.more = append(o.more, parts...) }

func (o *upsertEntryOp) String() string {
	return fmt.Sprintf("upsert entry %q of session %q", o.e.EntryID, o.e.SessionID)
}

func (o *upsertEntryOp) exec(ctx context.Context, b *batchTx) error {
	e := o.e
	if len(o.more) > 0 {
		e.Text += strings.Join(o.more, "")
	}
	return upsertEntry(ctx, b, e)
}

// upsertEntry inserts e or replaces every column of the entry with its (SessionID, EntryID), its
// whole text in entries.text (see pieces.go).
func upsertEntry(ctx context.Context, b *batchTx, e Entry) error {
	k := entryKey{e.SessionID, e.EntryID}
	if err := b.touch(ctx, k.session, k.entry); err != nil {
		return err
	}
	id, inserted, err := b.insertIfNew(ctx, k, e)
	if err != nil {
		return err
	}
	if inserted {
		b.wroteEntry(k, indexed{had: true, id: id, title: e.Title, text: e.Text})
		return nil // new: it has no pieces
	}
	err = b.scanRow(ctx, `INSERT INTO entries (session_id, entry_id, turn, seq, kind, status,
		title, text, body) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (session_id, entry_id) DO UPDATE SET turn = excluded.turn,
		seq = excluded.seq, kind = excluded.kind, status = excluded.status,
		title = excluded.title, text = excluded.text, body = excluded.body RETURNING id`,
		[]any{e.SessionID, e.EntryID, e.Turn, e.Seq, e.Kind, e.Status, e.Title, e.Text, nullBytes(e.Body)}, &id)
	if err != nil {
		return err
	}
	b.wroteEntry(k, indexed{had: true, id: id, title: e.Title, text: e.Text})
	if !b.mayHavePieces(k) {
		return nil // new in this batch, and never appended to in pieces: there are none to drop
	}
	return b.dropPieces(ctx, e.SessionID, e.EntryID)
}

// insertIfNew inserts e if the batch takes it for a new entry (the entry was not there before the
// batch and the batch has not upserted it) and it is not there: a plain INSERT, without the
// upsert's statement journal and RETURNING row, which were most of a streamed entry's cost.
// It reports whether it inserted; if not, it changed nothing and the caller upserts (a guess
// proved wrong, by a fork's copied entries for one, costs a statement, never a row).
func (b *batchTx) insertIfNew(ctx context.Context, k entryKey, e Entry) (id int64, inserted bool, err error) {
	if b.index.pending[k].had || b.upserted[k] {
		return 0, false, nil
	}
	if b.upserted == nil {
		b.upserted = map[entryKey]bool{}
	}
	b.upserted[k] = true
	res, err := b.exec(ctx, `INSERT OR IGNORE INTO entries (session_id, entry_id, turn, seq, kind, status,
		title, text, body) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		e.SessionID, e.EntryID, e.Turn, e.Seq, e.Kind, e.Status, e.Title, e.Text, nullBytes(e.Body))
	if err != nil {
		return 0, false, err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return 0, false, err
	}
	id, err = res.LastInsertId()
	return id, err == nil, err
}

// appendOp holds the text of one or more coalesced AppendText calls.
type appendOp struct {
	sessionID, entryID string
	parts              []string
}

func (o *appendOp) addText(parts []string) { o.parts = append(o.parts, parts...) }

func (o *appendOp) String() string {
	return fmt.Sprintf("append text to entry %q of session %q", o.entryID, o.sessionID)
}

func (o *appendOp) exec(ctx context.Context, b *batchTx) error {
	return b.appendText(ctx, o.sessionID, o.entryID, strings.Join(o.parts, ""))
}

// reply is embedded by the ops whose caller waits for their result (DeleteSession,
// RenameSession).
type reply struct {
	missing bool       // the op found no row to change: ErrNotFound for the caller only
	res     chan error // capacity 1
}

func newReply() reply { return reply{res: make(chan error, 1)} }

// settleAs hands the caller its result; name is the op's description.
func (r *reply) settleAs(name string, err error) {
	if err == nil && r.missing {
		err = fmt.Errorf("%s: %w", name, ErrNotFound)
	}
	r.res <- err
}

// found records whether res changed a row.
func (r *reply) found(res sql.Result) error {
	n, err := res.RowsAffected()
	r.missing = n == 0
	return err
}

// deleteSessionOp is DeleteSession's op.
type deleteSessionOp struct {
	id string
	reply
}

func (o *deleteSessionOp) String() string { return fmt.Sprintf("delete session %q", o.id) }

func (o *deleteSessionOp) exec(ctx context.Context, b *batchTx) error {
	// Its subagent sessions go with it, at every depth (a child is part of its parent's work).
	children, err := b.descendants(ctx, o.id)
	if err != nil {
		return err
	}
	for _, id := range children {
		if _, err := b.deleteOne(ctx, id); err != nil {
			return err
		}
	}
	res, err := b.deleteOne(ctx, o.id)
	if err != nil {
		return err
	}
	return o.found(res)
}

// deleteOne deletes session id's row, its search index rows and what hangs on it (cascades).
func (b *batchTx) deleteOne(ctx context.Context, id string) (sql.Result, error) {
	if err := b.unindexSession(ctx, id); err != nil {
		return nil, err
	}
	delete(b.msgSeq, id) // a session created again under this id starts its journal at 1
	b.forgetWritten()
	return b.exec(ctx, `DELETE FROM sessions WHERE id = ?`, id)
}

// descendants are the ids of session id's subagent sessions at every depth (parent_id).
func (b *batchTx) descendants(ctx context.Context, id string) ([]string, error) {
	return queryAll(ctx, b.tx, "list the subagent sessions of "+id, func(rows *sql.Rows) (c string, err error) {
		err = rows.Scan(&c)
		return c, err
	}, `WITH RECURSIVE tree(id) AS (
			SELECT id FROM sessions WHERE parent_id = ?1 AND id <> ?1
			UNION SELECT s.id FROM sessions s JOIN tree ON s.parent_id = tree.id)
		SELECT id FROM tree`, id)
}

func (o *deleteSessionOp) settle(err error) { o.settleAs(o.String(), err) }

// renameSessionOp is RenameSession's op.
type renameSessionOp struct {
	id, title string
	reply
}

func (o *renameSessionOp) String() string { return fmt.Sprintf("rename session %q", o.id) }

func (o *renameSessionOp) exec(ctx context.Context, b *batchTx) error {
	res, err := b.exec(ctx, `UPDATE sessions SET title = ? WHERE id = ?`, o.title, o.id)
	if err != nil {
		return err
	}
	return o.found(res)
}

func (o *renameSessionOp) settle(err error) { o.settleAs(o.String(), err) }
