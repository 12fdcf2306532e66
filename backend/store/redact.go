package store

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Redaction rewrites text the history already holds: the app hides secret values that older
// versions saved in clear, or that were saved before agentdesk knew them. The store knows no
// secrets; the caller hands it the values and how to hide them.
type Redaction struct {
	// Values are what to look for: a row holding none of them is not read.
	Values []string
	// Mask returns a text with every value hidden. It is called on the writer's connection
	// while Redact holds the write lock: it must not use the Store.
	Mask func(string) string
	// Once, when not "", names the redaction: it runs only if none of that name has been
	// recorded in this file, and is recorded in the same transaction (so it runs once even
	// when two processes open the file together).
	Once string
}

// redactedColumns are the columns that hold what agents and users wrote, by table: every one
// that can quote a secret. Ids, folders, kinds and times are left alone.
var redactedColumns = []struct {
	table   string
	columns []string
}{
	{"sessions", []string{"title", "agent_cmd"}},      // agent_cmd: the hub keeps none with a known secret; one stored later
	{"turns", []string{"prompt", "error", "receipt"}}, // a receipt quotes commands and titles
	{"entries", []string{"title", "text", "body"}},
	{"entry_pieces", []string{"text"}}, // the rest of a long streamed entry's text (pieces.go)
	{"permissions", []string{"title", "options", "rule_label"}},
	{"messages", []string{"json"}},
}

// Redact rewrites, with r.Mask, every row whose text columns hold one of r.Values (session
// titles, prompts, turn errors and receipts, entries' titles, text and bodies, permission requests, the
// journal), and the full-text indexes with them, in one transaction. An entry kept in pieces is
// searched and masked as one text, so a value cut across two pieces is found. It returns how many rows
// changed, and ran == false when r.Once was already recorded.
//
// What it replaces does not linger in the file: the transaction runs with secure_delete (freed
// space is zeroed), both search indexes are merged anew when a row changed (FTS5 keeps a
// deleted term in its older segments until then), and the WAL is checkpointed and truncated
// afterwards. That last step is best effort: another process reading the file keeps older WAL
// frames alive until it is done. Redact takes the store's one connection, so it runs between
// the writer's batches (whose writes it sees), and reads wait for it.
func (s *Store) Redact(ctx context.Context, r Redaction) (changed int, ran bool, err error) {
	if s.w == nil {
		return 0, false, fmt.Errorf("hide values in the history %q: %w", s.path, ErrReadOnly)
	}
	changed, ran, err = s.redact(ctx, r)
	if err != nil {
		return 0, false, fmt.Errorf("hide values in the history %q: %w", s.path, err)
	}
	return changed, ran, nil
}

// Redacted reports whether a Redaction with Once == name has run on this file.
func (s *Store) Redacted(ctx context.Context, name string) (bool, error) {
	var done bool
	err := s.db.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM sqlite_schema WHERE name = 'redactions')`).Scan(&done)
	if err == nil && done {
		err = s.db.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM redactions WHERE name = ?)`, name).Scan(&done)
	}
	if err != nil {
		return false, fmt.Errorf("read the redactions of the history %q: %w", s.path, err)
	}
	return done, nil
}

func (s *Store) redact(ctx context.Context, r Redaction) (int, bool, error) {
	conn, err := s.db.Conn(ctx) // one connection: the pragma must hold for the transaction
	if err != nil {
		return 0, false, err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `PRAGMA secure_delete = ON`); err != nil {
		return 0, false, err
	}
	// The writer's batches are short and frequent: zeroing what they free costs them I/O.
	defer conn.ExecContext(context.Background(), `PRAGMA secure_delete = OFF`)
	n, ran, err := redactTx(ctx, conn, r, s.w.now().UnixMilli())
	if err == nil && n > 0 {
		// Best effort (see Redact): a reader elsewhere keeps its frames; nothing is lost.
		_, _ = conn.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`)
	}
	return n, ran, err
}

// redactTx is Redact's transaction: the rows rewritten, the indexes brought along, the name
// recorded.
func redactTx(ctx context.Context, conn *sql.Conn, r Redaction, now int64) (int, bool, error) {
	tx, err := conn.BeginTx(ctx, nil) // BEGIN IMMEDIATE: the Once check holds until the commit
	if err != nil {
		return 0, false, err
	}
	defer tx.Rollback()
	if r.Once != "" {
		if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS redactions (
			name TEXT PRIMARY KEY, rows INTEGER NOT NULL, at INTEGER NOT NULL)`); err != nil {
			return 0, false, err
		}
		var done bool
		if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM redactions WHERE name = ?)`, r.Once).Scan(&done); err != nil {
			return 0, false, err
		}
		if done {
			return 0, false, nil
		}
	}
	// The entries' search index is kept by the writer's own rules (searchindex.go): touch
	// before each change, one sync at the end.
	b := &batchTx{tx: tx, stmts: map[string]*sql.Stmt{}, msgSeq: map[string]int64{}}
	values, err := json.Marshal(slices.DeleteFunc(slices.Clone(r.Values), func(v string) bool { return v == "" }))
	if err != nil {
		return 0, false, err
	}
	n := 0
	if string(values) != "[]" { // else nothing to find: no need to read the history
		if n, err = redactPieced(ctx, b, string(values), r.Mask); err != nil {
			return 0, false, fmt.Errorf("entries: %w", err)
		}
	}
	for _, t := range redactedColumns {
		if string(values) == "[]" {
			break // nothing to find: no need to read the history (a pass with no secret yet)
		}
		changed, err := redactTable(ctx, b, t.table, t.columns, string(values), r.Mask)
		if err != nil {
			return 0, false, fmt.Errorf("%s: %w", t.table, err)
		}
		n += changed
	}
	if err := b.syncIndex(ctx); err != nil {
		return 0, false, err
	}
	if n > 0 {
		for _, index := range []string{"entries_fts", "pieces_fts", "titles_fts"} {
			if _, err := tx.ExecContext(ctx, fmt.Sprintf(`INSERT INTO %s (%s) VALUES ('optimize')`, index, index)); err != nil {
				return 0, false, fmt.Errorf("merge %s: %w", index, err)
			}
		}
	}
	if r.Once != "" {
		if _, err := tx.ExecContext(ctx, `INSERT INTO redactions (name, rows, at) VALUES (?, ?, ?)`, r.Once, n, now); err != nil {
			return 0, false, err
		}
	}
	return n, true, tx.Commit()
}

// redactPieced masks the whole text of every entry kept in pieces (pieces.go) that holds one of
// values (a JSON array), and returns how many entries changed. Row by row, as redactTable reads,
// a value cut across two pieces (a word longer than a piece takes in, streamed in chunks) is
// in neither. The masked text is written back whole to entries.text and the pieces are
// dropped, as UpsertEntry writes a text.
func redactPieced(ctx context.Context, b *batchTx, values string, mask func(string) string) (int, error) {
	rows, err := b.tx.QueryContext(ctx, `SELECT session_id, entry_id, whole FROM (
			SELECT e.session_id, e.entry_id, `+entryText+` AS whole FROM entries e
			WHERE EXISTS (SELECT 1 FROM entry_pieces p WHERE p.entry = e.id))
		WHERE EXISTS (SELECT 1 FROM json_each(?) v WHERE instr(whole, v.value) > 0)`, values)
	if err != nil {
		return 0, err
	}
	type hit struct{ session, entry, text string }
	var hits []hit
	for rows.Next() {
		var h hit
		if err := rows.Scan(&h.session, &h.entry, &h.text); err != nil {
			rows.Close()
			return 0, err
		}
		hits = append(hits, h)
	}
	if err := errors.Join(rows.Err(), rows.Close()); err != nil {
		return 0, err
	}
	n := 0
	for _, h := range hits {
		masked := mask(h.text)
		if masked == h.text {
			continue
		}
		if err := b.touch(ctx, h.session, h.entry); err != nil {
			return 0, err
		}
		if err := b.dropPieces(ctx, h.session, h.entry); err != nil {
			return 0, err
		}
		b.forgetWritten()
		if _, err := b.exec(ctx, `UPDATE entries SET text = ? WHERE session_id = ? AND entry_id = ?`, masked, h.session, h.entry); err != nil {
			return 0, err
		}
		n++
	}
	return n, nil
}

// redactTable masks columns in every row of table that holds one of values (a JSON array),
// and returns how many rows changed. Entries and pieces are touched first, for the search index.
func redactTable(ctx context.Context, b *batchTx, table string, columns []string, values string, mask func(string) string) (int, error) {
	var found []string
	for _, c := range columns {
		found = append(found, fmt.Sprintf("instr(CAST(%s AS TEXT), v.value) > 0", c))
	}
	key := "rowid, '', ''"
	if table == "entries" {
		key = "rowid, session_id, entry_id"
	}
	rows, err := b.tx.QueryContext(ctx, fmt.Sprintf(`SELECT %s, %s FROM %s
		WHERE EXISTS (SELECT 1 FROM json_each(?) v WHERE %s)`, key, strings.Join(columns, ", "), table, strings.Join(found, " OR ")), values)
	if err != nil {
		return 0, err
	}
	type row struct {
		id             int64
		session, entry string
		cells          []any
	}
	var hits []row
	for rows.Next() {
		r := row{cells: make([]any, len(columns))}
		dest := []any{&r.id, &r.session, &r.entry}
		for i := range r.cells {
			dest = append(dest, &r.cells[i])
		}
		if err := rows.Scan(dest...); err != nil {
			rows.Close()
			return 0, err
		}
		hits = append(hits, r)
	}
	if err := errors.Join(rows.Err(), rows.Close()); err != nil {
		return 0, err
	}
	var set []string
	for _, c := range columns {
		set = append(set, c+" = ?")
	}
	update := fmt.Sprintf(`UPDATE %s SET %s WHERE rowid = ?`, table, strings.Join(set, ", "))
	n := 0
	for _, r := range hits {
		if !maskCells(r.cells, mask) {
			continue
		}
		switch table {
		case "entries":
			if err := b.touch(ctx, r.session, r.entry); err != nil {
				return 0, err
			}
			b.forgetWritten()
		case "entry_pieces":
			if err := b.touchPiece(ctx, r.id); err != nil {
				return 0, err
			}
		}
		if _, err := b.exec(ctx, update, append(r.cells, r.id)...); err != nil {
			return 0, err
		}
		n++
	}
	return n, nil
}

// maskCells masks each text or blob cell in place (a blob stays a blob) and reports whether
// one changed.
func maskCells(cells []any, mask func(string) string) bool {
	changed := false
	for i, c := range cells {
		switch v := c.(type) {
		case string:
			if m := mask(v); m != v {
				cells[i], changed = m, true
			}
		case []byte:
			if m := mask(string(v)); !bytes.Equal([]byte(m), v) {
				cells[i], changed = []byte(m), true
			}
		}
	}
	return changed
}
