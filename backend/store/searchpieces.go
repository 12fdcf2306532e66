package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"slices"
	"strings"
)

// A long streamed entry is indexed in rows: entries_fts holds its entries.text, pieces_fts each
// of its 32 KiB pieces (pieces.go). A query's words all in one row match that row; words spread
// over the rows of one entry (two words on either side of a cut between pieces) match none.
// spreadHits finds those entries, word by word.

// spreadHits passes hit each entry kept in pieces that holds every term of match (a
// matchExpr) in its rows together but in none of them alone, unless seen (by id) says it was
// hit already. Only the entries that have one of the newest scoreHits pieces matching a term
// are looked at. Such a hit scores 0 (ranked after every scored hit) and points at a row that
// holds a term, for its snippet: the entry's own row if it does, else its newest such piece.
func spreadHits(ctx context.Context, tx *sql.Tx, match string, scoreHits int, seen map[int64]bool,
	hit func(id string, rowid int64, kind hitKind, score float64)) error {
	terms := strings.Fields(match) // matchExpr quotes each term: it holds no space
	if len(terms) < 2 {
		return nil
	}
	has := make([]map[int64]bool, len(terms)) // per term, the entries that hold it
	piece := map[int64]int64{}                // entry → its newest piece holding a term
	for i, term := range terms {
		has[i] = map[int64]bool{}
		err := eachRow(ctx, tx, func(rows *sql.Rows) error {
			var entry, id int64
			if err := rows.Scan(&entry, &id); err != nil {
				return err
			}
			has[i][entry] = true
			piece[entry] = max(piece[entry], id)
			return nil
		}, `SELECT p.entry, p.id FROM (SELECT rowid FROM pieces_fts WHERE pieces_fts MATCH ?
			ORDER BY rowid DESC LIMIT ?) f JOIN entry_pieces p ON p.id = f.rowid`, term, scoreHits)
		if err != nil {
			return err
		}
	}
	if len(piece) == 0 {
		return nil
	}
	ids := make([]int64, 0, len(piece))
	for entry := range piece {
		ids = append(ids, entry)
	}
	low, high := slices.Min(ids), slices.Max(ids) // a rowid range FTS5 uses, unlike IN
	cands, err := json.Marshal(ids)
	if err != nil {
		return err
	}
	own := map[int64]bool{} // entries whose own row holds a term
	for i, term := range terms {
		err := eachRow(ctx, tx, func(rows *sql.Rows) error {
			var entry int64
			if err := rows.Scan(&entry); err != nil {
				return err
			}
			has[i][entry], own[entry] = true, true
			return nil
		}, `SELECT rowid FROM entries_fts WHERE entries_fts MATCH ?1 AND rowid >= ?2 AND rowid <= ?3
			AND +rowid IN (SELECT value FROM json_each(?4))`, term, low, high, string(cands))
		if err != nil {
			return err
		}
	}
	return eachRow(ctx, tx, func(rows *sql.Rows) error {
		var entry int64
		var session string
		if err := rows.Scan(&entry, &session); err != nil {
			return err
		}
		if seen[entry] {
			return nil
		}
		for i := range terms {
			if !has[i][entry] {
				return nil
			}
		}
		if own[entry] {
			hit(session, entry, hitEntry, 0)
		} else {
			hit(session, piece[entry], hitPiece, 0)
		}
		return nil
	}, `SELECT e.id, e.session_id FROM json_each(?) c JOIN entries e ON e.id = c.value ORDER BY e.id DESC`, string(cands))
}

// eachRow runs query with args in tx and calls scan for each row.
func eachRow(ctx context.Context, tx *sql.Tx, scan func(*sql.Rows) error, query string, args ...any) error {
	rows, err := tx.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	for rows.Next() {
		if err := scan(rows); err != nil {
			rows.Close()
			return err
		}
	}
	return errors.Join(rows.Err(), rows.Close())
}

// anyTerm is match (a matchExpr) with its terms ORed: what a snippet marks in a row that holds
// only some of them.
func anyTerm(match string) string { return strings.Join(strings.Fields(match), " OR ") }
