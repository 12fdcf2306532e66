package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
)

// The writer keeps entries_fts (the full-text index over entries' title and text) and pieces_fts
// (over the pieces of long streamed entries, pieces.go) in step with their tables itself, once
// per batch, instead of by triggers (0004_index_by_writer.sql dropped them). Why: with a trigger every entry write is a statement with a statement journal,
// and SQLite opens a savepoint on the FTS table for each, at which FTS5 writes its pending
// terms to disk. A streamed reply rewrites an entry every batch, so a flood flushed a tiny index
// segment per statement: 13% of the app's CPU. Written at the end of the batch, in plain
// single-row statements, the index takes one flush per commit.
//
// The invariant: until searchIndex.sync runs, entries_fts holds what it held before the batch
// for every entry touched in it, and pending holds those pre-batch values (captured before the
// first write of each entry); likewise pieces_fts and pieces for the pieces (a piece inserted
// by the batch and not touched before was indexed as nothing). An op rolled back to its savepoint may leave a capture behind;
// it still holds the pre-batch values, which sync then finds unchanged. Because of this, sync
// must run only at the end of the batch, outside any op's savepoint.

// entryKey is an entry's natural key.
type entryKey struct{ session, entry string }

// indexed is what entries_fts holds for one entry before the batch: nothing (had == false),
// or its row id, title and text.
type indexed struct {
	had         bool
	id          int64
	title, text string
}

// indexedPiece is what pieces_fts holds for one piece before the batch: nothing (had ==
// false) or its text.
type indexedPiece struct {
	had  bool
	text string
}

// searchIndex is one batch's pending index work.
type searchIndex struct {
	pending    map[entryKey]indexed
	order      []entryKey // first-touch order, so that sync is deterministic
	pieces     map[int64]indexedPiece
	pieceOrder []int64
	// written is what an entry holds now, for the entries whose last write in the batch was an
	// upsert or an append to entries.text: sync takes it from here instead of reading the row
	// back (a statement per streamed entry a batch). Any other write to an entry, a session's
	// delete and an op rolled back forget it (forgetWritten), so sync reads the row.
	written map[entryKey]indexed
	// pieced are the entries the batch added pieces to: an upsert of an entry that did not exist
	// before the batch and is not here has no pieces to drop.
	pieced map[entryKey]bool
}

// wroteEntry records what an entry holds after an upsert (see searchIndex.written).
func (b *batchTx) wroteEntry(k entryKey, now indexed) {
	if b.index.written == nil {
		b.index.written = map[entryKey]indexed{}
	}
	b.index.written[k] = now
}

// appendedBase records text appended to entries.text of an entry (see searchIndex.written).
func (b *batchTx) appendedBase(k entryKey, text string) {
	if now, ok := b.index.written[k]; ok {
		now.text += text
		b.index.written[k] = now
	}
}

// forgetWritten makes sync read every entry back from the table.
func (b *batchTx) forgetWritten() { clear(b.index.written) }

// mayHavePieces reports whether the entry can have pieces now: it existed before the batch, or
// the batch added pieces to it. Call it after touch.
func (b *batchTx) mayHavePieces(k entryKey) bool {
	return b.index.pending[k].had || b.index.pieced[k]
}

// addedPieceTo records that the batch added a piece to an entry.
func (b *batchTx) addedPieceTo(k entryKey) {
	if b.index.pieced == nil {
		b.index.pieced = map[entryKey]bool{}
	}
	b.index.pieced[k] = true
}

// touch captures the pre-batch index state of an entry about to be written, on its first
// write in the batch. Call it before every statement that inserts or changes an entry.
func (b *batchTx) touch(ctx context.Context, session, entry string) error {
	k := entryKey{session, entry}
	if _, ok := b.index.pending[k]; ok {
		return nil
	}
	was, err := b.indexedNow(ctx, k)
	if err != nil {
		return err
	}
	if b.index.pending == nil {
		b.index.pending = map[entryKey]indexed{}
	}
	b.index.pending[k] = was
	b.index.order = append(b.index.order, k)
	return nil
}

// touchAll captures, before the batch writes anything, the index state of every entry its
// upserts and appends name: one query per session instead of one per entry (touch then finds
// them captured). An entry another op writes (a redaction) is still captured by touch.
func (b *batchTx) touchAll(ctx context.Context, ops []op) error {
	bySession := map[string][]string{}
	var sessions []string // first-seen order, so that capture is deterministic
	for _, o := range ops {
		var k entryKey
		switch v := o.(type) {
		case *upsertEntryOp:
			k = entryKey{v.e.SessionID, v.e.EntryID}
		case *appendOp:
			k = entryKey{v.sessionID, v.entryID}
		default:
			continue
		}
		if _, ok := b.index.pending[k]; ok {
			continue
		}
		if b.index.pending == nil {
			b.index.pending = map[entryKey]indexed{}
		}
		b.index.pending[k] = indexed{} // until the query below finds it
		b.index.order = append(b.index.order, k)
		if _, seen := bySession[k.session]; !seen {
			sessions = append(sessions, k.session)
		}
		bySession[k.session] = append(bySession[k.session], k.entry)
	}
	for _, session := range sessions {
		list, err := json.Marshal(bySession[session])
		if err != nil {
			return err
		}
		st, err := b.stmt(ctx, `SELECT entry_id, id, title, text FROM entries
			WHERE session_id = ? AND entry_id IN (SELECT value FROM json_each(?))`)
		if err != nil {
			return fmt.Errorf("read entries for the search index: %w", err)
		}
		rows, err := st.QueryContext(ctx, session, string(list))
		if err != nil {
			return fmt.Errorf("read entries for the search index: %w", err)
		}
		for rows.Next() {
			var entry string
			row := indexed{had: true}
			if err := rows.Scan(&entry, &row.id, &row.title, &row.text); err != nil {
				rows.Close()
				return fmt.Errorf("read entries for the search index: %w", err)
			}
			b.index.pending[entryKey{session, entry}] = row
		}
		if err := errors.Join(rows.Err(), rows.Close()); err != nil {
			return fmt.Errorf("read entries for the search index: %w", err)
		}
	}
	return nil
}

// indexedNow reads what the entries table holds of an entry now, as entries_fts would index it.
func (b *batchTx) indexedNow(ctx context.Context, k entryKey) (indexed, error) {
	var row indexed
	had, err := b.scanIfAny(ctx, "entry", `SELECT id, title, text FROM entries WHERE session_id = ? AND entry_id = ?`,
		[]any{k.session, k.entry}, &row.id, &row.title, &row.text)
	if err != nil {
		return indexed{}, err
	}
	row.had = had
	return row, nil
}

// scanIfAny scans the row query finds into dest and reports whether there was one; what names
// the row in the error.
func (b *batchTx) scanIfAny(ctx context.Context, what, query string, args []any, dest ...any) (bool, error) {
	err := b.scanRow(ctx, query, args, dest...)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return false, nil
	case err != nil:
		return false, fmt.Errorf("read %s for the search index: %w", what, err)
	}
	return true, nil
}

// touchPiece captures the pre-batch index state of a piece about to be changed or deleted, on
// its first write in the batch.
func (b *batchTx) touchPiece(ctx context.Context, id int64) error {
	if _, ok := b.index.pieces[id]; ok {
		return nil
	}
	was, err := b.pieceNow(ctx, id)
	if err != nil {
		return err
	}
	b.notePiece(id, was)
	return nil
}

// addedPiece records a piece the batch inserted: unless touched before, it was indexed as
// nothing (a new id, or one whose row a DeleteSession of the batch unindexed).
func (b *batchTx) addedPiece(id int64) {
	if _, ok := b.index.pieces[id]; !ok {
		b.notePiece(id, indexedPiece{})
	}
}

func (b *batchTx) notePiece(id int64, was indexedPiece) {
	if b.index.pieces == nil {
		b.index.pieces = map[int64]indexedPiece{}
	}
	b.index.pieces[id] = was
	b.index.pieceOrder = append(b.index.pieceOrder, id)
}

// pieceNow reads what entry_pieces holds of a piece now.
func (b *batchTx) pieceNow(ctx context.Context, id int64) (indexedPiece, error) {
	var p indexedPiece
	had, err := b.scanIfAny(ctx, "a piece", `SELECT text FROM entry_pieces WHERE id = ?`, []any{id}, &p.text)
	if err != nil {
		return indexedPiece{}, err
	}
	p.had = had
	return p, nil
}

// unindexSession removes from entries_fts the entries of a session about to be deleted that
// the batch has not touched (the touched ones are unindexed by sync, which finds them gone).
// Its writes are the delete op's: a failed delete rolls them back with it.
func (b *batchTx) unindexSession(ctx context.Context, session string) error {
	touched := []string{} // entry ids; an empty list is "[]", never "null"
	for k := range b.index.pending {
		if k.session == session {
			touched = append(touched, k.entry)
		}
	}
	pieces := []int64{}
	for id := range b.index.pieces {
		pieces = append(pieces, id)
	}
	list, err := json.Marshal(touched)
	if err != nil {
		return err
	}
	pieceList, err := json.Marshal(pieces)
	if err != nil {
		return err
	}
	if _, err := b.tx.ExecContext(ctx, `INSERT INTO entries_fts (entries_fts, rowid, title, text)
		SELECT 'delete', id, title, text FROM entries
		WHERE session_id = ?1 AND entry_id NOT IN (SELECT value FROM json_each(?2))`, session, string(list)); err != nil {
		return fmt.Errorf("remove session from the search index: %w", err)
	}
	if _, err := b.tx.ExecContext(ctx, `INSERT INTO pieces_fts (pieces_fts, rowid, text)
		SELECT 'delete', p.id, p.text FROM entries e JOIN entry_pieces p ON p.entry = e.id
		WHERE e.session_id = ?1 AND p.id NOT IN (SELECT value FROM json_each(?2))`, session, string(pieceList)); err != nil {
		return fmt.Errorf("remove session from the search index: %w", err)
	}
	return nil
}

// syncIndex brings entries_fts and pieces_fts up to date with every entry and piece the batch
// touched: the pre-batch values out, the current ones in, unless they are the same. The runner
// calls it once, after the last op and before the commit.
func (b *batchTx) syncIndex(ctx context.Context) error {
	for _, k := range b.index.order {
		was := b.index.pending[k]
		now, known := b.index.written[k]
		if !known {
			var err error
			if now, err = b.indexedNow(ctx, k); err != nil {
				return err
			}
		}
		if was == now {
			continue
		}
		if was.had {
			if _, err := b.exec(ctx, `INSERT INTO entries_fts (entries_fts, rowid, title, text)
				VALUES ('delete', ?, ?, ?)`, was.id, was.title, was.text); err != nil {
				return fmt.Errorf("update the search index: %w", err)
			}
		}
		if now.had {
			if _, err := b.exec(ctx, `INSERT INTO entries_fts (rowid, title, text) VALUES (?, ?, ?)`,
				now.id, now.title, now.text); err != nil {
				return fmt.Errorf("update the search index: %w", err)
			}
		}
	}
	for _, id := range b.index.pieceOrder {
		was := b.index.pieces[id]
		now, err := b.pieceNow(ctx, id)
		if err != nil {
			return err
		}
		if was == now {
			continue
		}
		if was.had {
			if _, err := b.exec(ctx, `INSERT INTO pieces_fts (pieces_fts, rowid, text) VALUES ('delete', ?, ?)`,
				id, was.text); err != nil {
				return fmt.Errorf("update the search index: %w", err)
			}
		}
		if now.had {
			if _, err := b.exec(ctx, `INSERT INTO pieces_fts (rowid, text) VALUES (?, ?)`, id, now.text); err != nil {
				return fmt.Errorf("update the search index: %w", err)
			}
		}
	}
	return nil
}
