package store

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"slices"

	sqlite3 "modernc.org/sqlite/lib"
)

// op is one queued write. String names it and its ids for error messages.
type op interface {
	fmt.Stringer
	exec(ctx context.Context, b *batchTx) error
}

// settler is an op whose caller waits for its own result (DeleteSession, RenameSession).
type settler interface {
	settle(err error)
}

// syncer is an op whose batch is committed with an fsync (synchronous=FULL), not only to the
// WAL: a turn end and an outcome, which the page shows as finished, must survive a power loss
// too. Other batches commit with synchronous=NORMAL, which a crash of the process never undoes.
type syncer interface {
	syncs()
}

// batchTx is one batch's transaction with its statements, prepared on first use.
type batchTx struct {
	tx    *sql.Tx
	stmts map[string]*sql.Stmt
	// msgSeq is the seq of each session's last journal message written in this transaction
	// (see journalOp.exec).
	msgSeq map[string]int64
	// index is the entries_fts work pending until the end of the batch (searchindex.go).
	index searchIndex
	// upserted are the entries the batch has written with UpsertEntry (see insertIfNew); an op
	// rolled back does not forget them, so that a guess stays on the safe side.
	upserted map[entryKey]bool
}

// stmt returns query prepared in the batch's transaction, once per batch.
func (b *batchTx) stmt(ctx context.Context, query string) (*sql.Stmt, error) {
	st := b.stmts[query]
	if st == nil {
		var err error
		if st, err = b.tx.PrepareContext(ctx, query); err != nil {
			return nil, err
		}
		b.stmts[query] = st
	}
	return st, nil
}

// exec runs query with args on a statement prepared once per batch.
func (b *batchTx) exec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	st, err := b.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	return st.ExecContext(ctx, args...)
}

// scanRow runs a one-row query on a statement prepared once per batch and scans its row into
// dest; no row is sql.ErrNoRows.
func (b *batchTx) scanRow(ctx context.Context, query string, args []any, dest ...any) error {
	st, err := b.stmt(ctx, query)
	if err != nil {
		return err
	}
	return st.QueryRowContext(ctx, args...).Scan(dest...)
}

// execOne runs an UPDATE or DELETE that must touch a row; none is ErrNotFound.
func (b *batchTx) execOne(ctx context.Context, query string, args ...any) error {
	res, err := b.exec(ctx, query, args...)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil {
		return err
	} else if n == 0 {
		return ErrNotFound
	}
	return nil
}

// commit writes one batch. If an op fails on its own (a missing row, a constraint), the batch
// is redone with a savepoint per op, so only the failing ops are lost; each failure is
// reported. A failure of the database as a whole (disk full, read-only, I/O error, corrupt
// file; see storageFailure), or to begin or commit, loses the whole batch and is reported once:
// it is not retried, so a full disk costs one attempt per batch, not a loop. It returns the
// first error.
func (w *Writer) commit(batch []op) error {
	ops := coalesce(batch)
	failed, err := w.runBatch(ops, nil)
	if failed != nil && !storageFailure(err) {
		errs := make([]error, len(ops))
		if failed, err = w.runBatch(ops, errs); err == nil {
			for i, o := range ops {
				if errs[i] != nil {
					w.onError(errs[i])
					err = cmp.Or(err, errs[i])
				}
				settle(o, errs[i])
			}
			return err
		}
	}
	if err != nil {
		if failed != nil {
			err = fmt.Errorf("history: batch of %d writes lost at %s: %w", len(batch), failed, err)
		} else {
			err = fmt.Errorf("history: batch of %d writes lost, from %s: %w", len(batch), ops[0], err)
		}
		w.onError(err)
	}
	for _, o := range ops {
		settle(o, err)
	}
	return err
}

// runBatch applies ops in one transaction. With errs == nil the first failing op aborts the
// batch; otherwise each op runs in a savepoint and its failure is recorded in errs[i] while
// the rest goes on, unless it is a storage failure, which aborts the batch. It returns the
// error that aborted the batch and the op that failed, if the batch did not fail to begin,
// set a savepoint or commit.
func (w *Writer) runBatch(ops []op, errs []error) (failed op, err error) {
	ctx := context.Background() // writes are not cancellable; Close waits for them
	conn, err := w.db.Conn(ctx) // the pool's only connection: a PRAGMA set here applies to tx
	if err != nil {
		return nil, fmt.Errorf("begin: %w", err)
	}
	defer conn.Close()
	if slices.ContainsFunc(ops, func(o op) bool { _, ok := o.(syncer); return ok }) {
		// SQLite refuses to change synchronous inside a transaction.
		if _, err := conn.ExecContext(ctx, `PRAGMA synchronous = FULL`); err != nil {
			return nil, fmt.Errorf("begin a synced commit: %w", err)
		}
		defer func() {
			if _, err := conn.ExecContext(ctx, `PRAGMA synchronous = NORMAL`); err != nil {
				w.onError(fmt.Errorf("history: later commits stay synced to disk (slower): %w", err))
			}
		}()
	}
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("begin: %w", err)
	}
	defer tx.Rollback() // no-op after Commit
	b := &batchTx{tx: tx, stmts: make(map[string]*sql.Stmt, 8), msgSeq: map[string]int64{}}
	if err := b.touchAll(ctx, ops); err != nil {
		return nil, err
	}
	for i, o := range ops {
		if errs == nil {
			if err := o.exec(ctx, b); err != nil {
				return o, err
			}
			continue
		}
		if _, err := tx.ExecContext(ctx, `SAVEPOINT op`); err != nil {
			return nil, fmt.Errorf("savepoint: %w", err)
		}
		if err := o.exec(ctx, b); err != nil {
			if storageFailure(err) {
				return o, err
			}
			errs[i] = fmt.Errorf("history: %s dropped: %w", o, err)
			b.forgetWritten() // what it wrote is undone
			if _, err := tx.ExecContext(ctx, `ROLLBACK TO op`); err != nil {
				return nil, fmt.Errorf("roll back %s: %w", o, err)
			}
		}
		if _, err := tx.ExecContext(ctx, `RELEASE op`); err != nil {
			return nil, fmt.Errorf("release savepoint: %w", err)
		}
	}
	if err := b.syncIndex(ctx); err != nil {
		return nil, err
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("commit: %w", err)
	}
	return nil, nil
}

// storageFailure reports whether err is SQLite failing to write the database at all rather
// than rejecting one operation: the next op would fail the same way.
func storageFailure(err error) bool {
	switch sqliteCode(err) {
	case sqlite3.SQLITE_FULL, sqlite3.SQLITE_IOERR, sqlite3.SQLITE_READONLY, sqlite3.SQLITE_CORRUPT,
		sqlite3.SQLITE_NOTADB, sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_NOMEM, sqlite3.SQLITE_PERM,
		sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED, sqlite3.SQLITE_PROTOCOL:
		return true
	}
	return false
}

func settle(o op, err error) {
	if s, ok := o.(settler); ok {
		s.settle(err)
	}
}

// textSink is an op that AppendText calls can be folded into.
type textSink interface{ addText(parts []string) }

// coalesce folds each AppendText into the previous op of the same entry in the batch (its
// UpsertEntry or first AppendText), and each journal message into the batch's first journal op
// of its session, until a DeleteSession intervenes. The final rows are the same (the messages
// of a session keep their order; entries and messages are separate tables), but a streamed
// message costs one statement (and one re-index) per batch instead of one per chunk, and
// its journal a statement per 64 messages. It reuses batch's array.
func coalesce(batch []op) []op {
	type key struct{ session, entry string }
	var sinks map[key]textSink
	var journals map[string]*journalOp // by session
	out := batch[:0]
	for _, o := range batch {
		switch v := o.(type) {
		case *appendOp:
			k := key{v.sessionID, v.entryID}
			if sink := sinks[k]; sink != nil {
				sink.addText(v.parts)
				continue
			}
			if sinks == nil {
				sinks = make(map[key]textSink)
			}
			sinks[k] = v
		case *upsertEntryOp:
			if sinks == nil {
				sinks = make(map[key]textSink)
			}
			sinks[key{v.e.SessionID, v.e.EntryID}] = v
		case *journalOp:
			session := v.msgs[0].SessionID
			if j := journals[session]; j != nil {
				j.msgs = append(j.msgs, v.msgs...)
				continue
			}
			if journals == nil {
				journals = make(map[string]*journalOp)
			}
			journals[session] = v
		case *deleteSessionOp:
			clear(sinks)
			clear(journals)
		}
		out = append(out, o)
	}
	return out
}
