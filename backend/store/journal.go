package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
)

// Message queues one raw JSON-RPC message for the session's journal; its seq is the next one
// of the session, in call order. A zero At is the clock's now. m.JSON is copied, so the
// caller may pass a reader's reused buffer; a message longer than maxJournalBytes is kept with
// its long strings cut (cutJournal). A Direction other than "in" or "out" is reported to the
// error handler at once and the message is dropped.
func (w *Writer) Message(m Message) {
	if m.Direction != DirectionIn && m.Direction != DirectionOut {
		w.onError(fmt.Errorf("history: journal message %q of session %q dropped: direction %q is neither %q nor %q",
			m.Method, m.SessionID, m.Direction, DirectionIn, DirectionOut))
		return
	}
	m.JSON = cutJournal(m.JSON)
	m.At = orNow(m.At, w.now)
	w.enqueue(&journalOp{msgs: []Message{m}}, false)
}

// journalOp writes one or more messages of one session, in order. coalesce folds the batch's
// later messages of the session into its first journalOp: a flood journals a message per
// chunk; they are written as runs (journalruns.go), several runs to an INSERT.
type journalOp struct{ msgs []Message }

func (o *journalOp) String() string {
	m := o.msgs[0]
	if len(o.msgs) == 1 {
		return fmt.Sprintf("journal %s message %q of session %q", m.Direction, m.Method, m.SessionID)
	}
	return fmt.Sprintf("journal %d messages of session %q", len(o.msgs), m.SessionID)
}

// journalRows are the row (run) counts of the INSERT statements a journalOp uses, largest
// first: a few distinct statements to prepare per batch, few statements per message.
var journalRows = []int{64, 8, 1}

func (o *journalOp) exec(ctx context.Context, b *batchTx) error {
	session := o.msgs[0].SessionID
	// The seq follows the session's last saved message, read once per batch: plain INSERT ...
	// VALUES statements, unlike an INSERT ... SELECT max(seq), need no statement journal. Only
	// this process writes the messages of its sessions.
	seq, ok := b.msgSeq[session]
	if !ok {
		err := b.scanRow(ctx, `SELECT seq + n - 1 FROM messages WHERE session_id = ? ORDER BY seq DESC LIMIT 1`,
			[]any{session}, &seq)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
	}
	rest := runsOf(o.msgs)
	args := make([]any, 0, 8*journalRows[0])
	for _, n := range journalRows {
		for len(rest) >= n {
			args = args[:0]
			for _, r := range rest[:n] {
				json, at, steps := r.row()
				m := r.msgs[0]
				args = append(args, session, seq+1, m.Direction, m.Method, json, at, len(r.msgs), steps)
				seq += int64(len(r.msgs))
			}
			if _, err := b.exec(ctx, insertMessages[n], args...); err != nil {
				return err
			}
			rest = rest[n:]
		}
	}
	b.msgSeq[session] = seq
	return nil
}

// insertMessages holds the INSERT of n journal rows for each n of journalRows, built once.
var insertMessages = func() map[int]string {
	m := map[int]string{}
	for _, n := range journalRows {
		m[n] = `INSERT INTO messages (session_id, seq, direction, method, json, at, n, at_steps) VALUES ` +
			strings.TrimSuffix(strings.Repeat(`(?, ?, ?, ?, ?, ?, ?, ?), `, n), ", ")
	}
	return m
}()
