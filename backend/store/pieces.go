package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// An entry's text is entries.text followed by its entry_pieces rows in id order
// (0005_text_pieces.sql). AppendText extends the entry's last piece, entries.text itself while
// the entry has none, up to pieceBytes, and then starts new pieces. So a batch rewrites and
// re-indexes at most one piece of an entry besides the text it adds: appending costs time
// linear in the text, however long the entry. Rewriting entries.text whole each batch, as
// before, made a 500,000-chunk message quadratic (minutes of writes after the turn had ended).
//
// Pieces end after a space or a line break, so a word is never split between two index rows:
// a piece may exceed pieceBytes by the end of a word (see cutAt; only a run of more than
// wordBytes without a space is cut, or a word continued after an UpsertEntry longer than a
// piece). A search matches one entries_fts or pieces_fts row, or for words spread over an
// entry's rows, each word one of them (spreadHits, searchpieces.go). UpsertEntry writes the whole text to
// entries.text and drops the pieces: the engine sends it whole, so that costs no more than the
// upsert itself.

// pieceBytes is about the most text a batch rewrites to append to an entry: 32 KiB holds a long
// reply whole (one index row, so a search matches its words together) and costs about a
// millisecond to rewrite and re-index. (64 KiB wrote a quarter more in a flood, 16 KiB saved a
// tenth more; the index, not the piece, is most of what a batch writes.)
const pieceBytes = 32 << 10

// wordBytes is the longest word end a full piece takes in, so as not to split it.
const wordBytes = 64

// maxPieceBytes bounds a piece written by appends: pieceBytes and the ends of words.
const maxPieceBytes = pieceBytes + 2*wordBytes + 1

// spaces are where a piece may end: the tokenizer never puts them in a word.
const spaces = " \n\r\t"

// entryText is the SQL for an entry's whole text, for a query on entries aliased e.
const entryText = `e.text || coalesce((SELECT group_concat(p.text, '' ORDER BY p.id)
	FROM entry_pieces p WHERE p.entry = e.id), '')`

// appendText appends text to an entry: to its last piece while that has room, then in new
// pieces. A missing entry is ErrNotFound.
func (b *batchTx) appendText(ctx context.Context, session, entry, text string) error {
	var id, baseLen int64
	var last, lastLen sql.NullInt64
	err := b.scanRow(ctx, `SELECT e.id, octet_length(e.text), p.id, octet_length(p.text)
		FROM entries e LEFT JOIN entry_pieces p ON p.id = (SELECT max(id) FROM entry_pieces WHERE entry = e.id)
		WHERE e.session_id = ? AND e.entry_id = ?`, []any{session, entry}, &id, &baseLen, &last, &lastLen)
	if errors.Is(err, sql.ErrNoRows) {
		return ErrNotFound
	}
	if err != nil {
		return err
	}
	room := pieceBytes - baseLen
	if last.Valid {
		room = pieceBytes - lastLen.Int64
	}
	if n := cutAt(text, room); n > 0 {
		if last.Valid {
			err = b.extendPiece(ctx, last.Int64, text[:n])
		} else {
			err = b.extendBase(ctx, session, entry, id, text[:n])
		}
		if err != nil {
			return err
		}
		text = text[n:]
	}
	for text != "" {
		n := cutAt(text, pieceBytes)
		res, err := b.exec(ctx, `INSERT INTO entry_pieces (entry, text) VALUES (?, ?)`, id, text[:n])
		if err != nil {
			return err
		}
		piece, err := res.LastInsertId()
		if err != nil {
			return err
		}
		b.addedPiece(piece)
		b.addedPieceTo(entryKey{session, entry})
		text = text[n:]
	}
	return nil
}

// extendBase appends text to entries.text of entry id.
func (b *batchTx) extendBase(ctx context.Context, session, entry string, id int64, text string) error {
	if err := b.touch(ctx, session, entry); err != nil {
		return err
	}
	if _, err := b.exec(ctx, `UPDATE entries SET text = text || ? WHERE id = ?`, text, id); err != nil {
		return err
	}
	b.appendedBase(entryKey{session, entry}, text)
	return nil
}

// extendPiece appends text to piece id.
func (b *batchTx) extendPiece(ctx context.Context, id int64, text string) error {
	if err := b.touchPiece(ctx, id); err != nil {
		return err
	}
	_, err := b.exec(ctx, `UPDATE entry_pieces SET text = text || ? WHERE id = ?`, text, id)
	return err
}

// dropPieces deletes the pieces of an entry whose whole text was just written to entries.text.
// One prepared statement: the rows it returns are the pieces as they were, which is what the
// index held before the batch for any piece the batch had not touched yet (touchPiece).
func (b *batchTx) dropPieces(ctx context.Context, session, entry string) error {
	st, err := b.stmt(ctx, `DELETE FROM entry_pieces WHERE entry =
		(SELECT id FROM entries WHERE session_id = ? AND entry_id = ?) RETURNING id, text`)
	if err != nil {
		return fmt.Errorf("drop pieces: %w", err)
	}
	rows, err := st.QueryContext(ctx, session, entry)
	if err != nil {
		return fmt.Errorf("drop pieces: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var text string
		if err := rows.Scan(&id, &text); err != nil {
			return err
		}
		if _, ok := b.index.pieces[id]; !ok {
			b.notePiece(id, indexedPiece{had: true, text: text})
		}
	}
	return errors.Join(rows.Err(), rows.Close())
}

// cutAt returns how much of s goes into a piece with room bytes left (room <= 0: full): all
// of s if it fits; else up to its last space or line break within room; else the word s starts
// with, if it is at most wordBytes long (it may end the piece's last word, cut by a batch) and
// the piece is no more than wordBytes over pieceBytes (so a piece stays under
// maxPieceBytes, and a long upserted entries.text is never rewritten); else 0, "start a new
// piece", or for an empty piece (room == pieceBytes) and a run without a space, room bytes
// back to a character boundary. It is more than 0 when room is pieceBytes.
func cutAt(s string, room int64) int {
	if int64(len(s)) <= room {
		return len(s)
	}
	if room > 0 {
		if i := strings.LastIndexAny(s[:room], spaces); i >= 0 {
			return i + 1
		}
	}
	if room > -wordBytes { // not an entries.text upserted longer than a piece
		if i := strings.IndexAny(s[:min(len(s), wordBytes+1)], spaces); i >= 0 {
			return i + 1
		}
		if len(s) <= wordBytes {
			return len(s)
		}
	}
	if room < pieceBytes {
		return 0
	}
	n := int(room)
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	if n == 0 { // not UTF-8: any cut will do
		n = int(room)
	}
	return n
}
