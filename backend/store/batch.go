package store

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
)

// op is one queued write. String names it and its ids for error messages.
type op interface {
	fmt.Stringer
	exec(ctx context.Context, b *batchTx) error
}

// settler is an op whose caller waits for its own result (DeleteSession).
type settler interface {
	settle(err error)
}

// batchTx is one batch's transaction with its statements, prepared on first use.
type batchTx struct {
	tx    *sql.Tx
	stmts map[string]*sql.Stmt
}

// exec runs query with args on a statement prepared once per batch.
func (b *batchTx) exec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	st := b.stmts[query]
	if st == nil {
		var err error
		if st, err = b.tx.PrepareContext(ctx, query); err != nil {
			return nil, err
		}
		b.stmts[query] = st
	}
	return st.ExecContext(ctx, args...)
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

// commit writes one batch. If an op fails, the batch is redone with a savepoint per op, so
// only the failing ops are lost; each failure is reported. A failure to begin or commit loses
// the batch and is reported once. It returns the first error.
func (w *Writer) commit(batch []op) error {
	ops := coalesce(batch)
	opFailed, err := w.runBatch(ops, nil)
	if err != nil && opFailed {
		errs := make([]error, len(ops))
		if _, err = w.runBatch(ops, errs); err == nil {
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
		w.onError(err)
	}
	for _, o := range ops {
		settle(o, err)
	}
	return err
}

// runBatch applies ops in one transaction. With errs == nil the first failing op aborts the
// batch (opFailed reports that case); otherwise each op runs in a savepoint and its failure
// is recorded in errs[i] while the rest goes on.
func (w *Writer) runBatch(ops []op, errs []error) (opFailed bool, err error) {
	ctx := context.Background() // writes are not cancellable; Close waits for them
	tx, err := w.db.BeginTx(ctx, nil)
	if err != nil {
		return false, fmt.Errorf("history: begin batch of %d writes: %w", len(ops), err)
	}
	defer tx.Rollback() // no-op after Commit
	b := &batchTx{tx: tx, stmts: make(map[string]*sql.Stmt, 8)}
	for i, o := range ops {
		if errs == nil {
			if err := o.exec(ctx, b); err != nil {
				return true, fmt.Errorf("history: %s: %w", o, err)
			}
			continue
		}
		if _, err := tx.ExecContext(ctx, `SAVEPOINT op`); err != nil {
			return false, fmt.Errorf("history: savepoint in batch of %d writes: %w", len(ops), err)
		}
		if err := o.exec(ctx, b); err != nil {
			errs[i] = fmt.Errorf("history: %s dropped: %w", o, err)
			if _, err := tx.ExecContext(ctx, `ROLLBACK TO op`); err != nil {
				return false, fmt.Errorf("history: roll back %s: %w", o, err)
			}
		}
		if _, err := tx.ExecContext(ctx, `RELEASE op`); err != nil {
			return false, fmt.Errorf("history: release savepoint in batch of %d writes: %w", len(ops), err)
		}
	}
	if err := tx.Commit(); err != nil {
		return false, fmt.Errorf("history: commit batch of %d writes: %w", len(ops), err)
	}
	return false, nil
}

func settle(o op, err error) {
	if s, ok := o.(settler); ok {
		s.settle(err)
	}
}

// textSink is an op that AppendText calls can be folded into.
type textSink interface{ addText(parts []string) }

// coalesce folds each AppendText into the previous op of the same entry in the batch (its
// UpsertEntry or first AppendText), until a DeleteSession intervenes. The final rows are the
// same, but a streamed message costs one statement (and one re-index) per batch instead of
// one per chunk. It reuses batch's array.
func coalesce(batch []op) []op {
	type key struct{ session, entry string }
	var sinks map[key]textSink
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
		case *deleteSessionOp:
			clear(sinks)
		}
		out = append(out, o)
	}
	return out
}
