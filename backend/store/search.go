package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxTerms bounds the FTS expression built from a search box.
const maxTerms = 16

// minPrefix is the shortest term matched as a prefix: a shorter one ("a", "go") matches
// whole words only. One or two letters would match a large part of the vocabulary, and
// 0003_search_prefix.sql indexes 3-letter prefixes so that typing one stays fast.
const minPrefix = 3

// matchExpr turns free text into a safe FTS5 MATCH expression: every run of letters, digits
// and marks becomes a quoted term, a prefix ("foo"*) if it has at least minPrefix characters,
// and the terms are ANDed. Quotes, *, -, ^, parentheses and FTS keywords (NEAR, AND, OR, NOT)
// therefore never reach the FTS parser as syntax. It returns "" if the text has no term.
func matchExpr(query string) string {
	terms := strings.FieldsFunc(query, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsNumber(r) && !unicode.IsMark(r)
	})
	var b strings.Builder
	n := 0
	for _, t := range terms {
		if n == maxTerms {
			break
		}
		if strings.IndexFunc(t, func(r rune) bool { return !unicode.IsMark(r) }) < 0 {
			continue // only combining marks: the tokenizer would make nothing of it
		}
		if n > 0 {
			b.WriteByte(' ')
		}
		b.WriteByte('"')
		b.WriteString(t)
		b.WriteByte('"')
		if utf8.RuneCountInString(t) >= minPrefix {
			b.WriteByte('*')
		}
		n++
	}
	return b.String()
}

// defaultScoreHits is how many matching entries a search scores, newest first (tests lower
// it with withScoreHits). Older hits only add the sessions not found yet, until the limit;
// below it, every hit counts. 2000 keeps a search of a common word on 100,000 entries
// around 15 ms.
const defaultScoreHits = 2000

// hitKind says which index a hit's rowid belongs to; a higher kind wins a tie.
type hitKind int

const (
	hitPiece hitKind = iota // pieces_fts: a piece of a long streamed entry (pieces.go)
	hitEntry                // entries_fts
	hitTitle                // titles_fts
)

// candidate is one session a search found: the sum of its hits' scores (bm25: more negative
// is better) and its best hit, a rowid of the index its kind names. A session found only
// beyond the scored hits has no hit (n == 0) and a total of 0.
type candidate struct {
	ID    string  `json:"id"`
	Total float64 `json:"total"`
	n     int     // hits counted
	best  float64
	hit   int64
	kind  hitKind
}

// add counts one hit. The best hit has the lowest score; on a tie a title beats an entry, an
// entry a piece, and then the oldest hit wins (hits may come in any order).
func (c *candidate) add(hit int64, kind hitKind, score float64) {
	better := c.n == 0 || score < c.best ||
		score == c.best && (kind > c.kind || kind == c.kind && hit < c.hit)
	if better {
		c.best, c.hit, c.kind = score, hit, kind
	}
	c.Total += score
	c.n++
}

// search ranks sessions for a MATCH expression, at most limit (< 0: all), in one snapshot.
//
// Every matching entry (title weighs 2, text 1) and session title (weighs 3 times an entry)
// is a hit scored by bm25. A session's rank is the sum of its hits' scores, so several good
// hits beat one weak one; ties go to the most recently updated. Entry hits are read newest
// first and only the first s.scoreHits are scored: older ones just add the sessions not
// found yet, unscored (ranked after every scored session), until there are limit sessions.
// So a query matching most of the history (a common word) favours recent sessions, and its
// cost depends on limit rather than on the size of the history. The pieces of long streamed
// entries (pieces_fts) are hits too, scored like entries, the newest s.scoreHits of them, an
// entry counting once (by its best piece); so is such an entry that holds the words only
// spread over its rows (spreadHits), scored 0. Snippets come from each
// session's best hit (an unscored session has none: its Snippet is empty) and are only
// computed for the rows returned.
func (s *Store) search(ctx context.Context, match string, limit int) ([]Summary, error) {
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true}) // a plain (deferred) BEGIN
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	cands, byID, err := searchHits(ctx, tx, match, limit, s.scoreHits)
	if err != nil || len(cands) == 0 {
		return nil, err
	}
	list, err := json.Marshal(cands)
	if err != nil {
		return nil, err
	}
	rows, err := tx.QueryContext(ctx, `SELECT `+s.columns()+`,
		(SELECT count(*) FROM turns t WHERE t.session_id = s.id)
		FROM json_each(?1) c JOIN sessions s ON s.id = c.value ->> 'id'
		ORDER BY c.value ->> 'total', s.updated_at DESC, s.id LIMIT ?2`, string(list), limit)
	if err != nil {
		return nil, err
	}
	out, err := scanSummaries(rows)
	if err != nil {
		return nil, err
	}
	if err := snippets(ctx, tx, match, out, byID); err != nil {
		return nil, err
	}
	return out, nil
}

// searchHits scores the entry and title hits of match per session (see search). It returns
// the sessions in the order found, and by id.
func searchHits(ctx context.Context, tx *sql.Tx, match string, limit, scoreHits int) (
	cands []*candidate, byID map[string]*candidate, err error) {
	byID = map[string]*candidate{}
	hit := func(id string, rowid int64, kind hitKind, score float64) {
		c := byID[id]
		if c == nil {
			c = &candidate{ID: id}
			byID[id] = c
			cands = append(cands, c)
		}
		c.add(rowid, kind, score)
	}
	// entries_fts yields rowids newest first (ORDER BY rowid DESC is its native order), so
	// LIMIT stops it without reading further. entries_hit (id, session_id) maps a hit to its
	// session without reading the entry's row; the planner would pick the row.
	rows, err := tx.QueryContext(ctx, `SELECT e.session_id, f.rowid, bm25(entries_fts, 2.0, 1.0)
		FROM entries_fts f JOIN entries e INDEXED BY entries_hit ON e.id = f.rowid
		WHERE entries_fts MATCH ? ORDER BY f.rowid DESC LIMIT ?`, match, scoreHits)
	if err != nil {
		return nil, nil, err
	}
	n, last := 0, int64(0)
	seen := map[int64]bool{} // the entries hit
	for ; rows.Next(); n++ {
		var id string
		var score float64
		if err := rows.Scan(&id, &last, &score); err != nil {
			rows.Close()
			return nil, nil, err
		}
		hit(id, last, hitEntry, score)
		seen[last] = true
	}
	if err := errors.Join(rows.Err(), rows.Close()); err != nil {
		return nil, nil, err
	}
	if err := pieceHits(ctx, tx, match, scoreHits, seen, hit); err != nil {
		return nil, nil, err
	}
	if err := spreadHits(ctx, tx, match, scoreHits, seen, hit); err != nil {
		return nil, nil, err
	}
	if n == scoreHits && (limit < 0 || len(cands) < limit) {
		// Too many hits to score them all: add the sessions of the older hits, newest first,
		// unscored (a total of 0 ranks them after every scored session) and without a hit
		// for a snippet, until limit sessions. SQLite finds the sessions (DISTINCT with
		// LIMIT stops early) at a third of the cost of streaming every hit to Go. Among the
		// first limit sessions at most len(cands) are known, so enough are new.
		older, err := tx.QueryContext(ctx, `SELECT DISTINCT e.session_id
			FROM entries_fts f JOIN entries e INDEXED BY entries_hit ON e.id = f.rowid
			WHERE entries_fts MATCH ? AND f.rowid < ? ORDER BY f.rowid DESC LIMIT ?`, match, last, limit)
		if err != nil {
			return nil, nil, err
		}
		for older.Next() && (limit < 0 || len(cands) < limit) {
			var id string
			if err := older.Scan(&id); err != nil {
				older.Close()
				return nil, nil, err
			}
			if byID[id] == nil {
				c := &candidate{ID: id}
				byID[id] = c
				cands = append(cands, c)
			}
		}
		if err := errors.Join(older.Err(), older.Close()); err != nil {
			return nil, nil, err
		}
	}
	rows, err = tx.QueryContext(ctx, `SELECT session_id, rowid, 3.0 * bm25(titles_fts)
		FROM titles_fts WHERE titles_fts MATCH ?`, match)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var rowid int64
		var score float64
		if err := rows.Scan(&id, &rowid, &score); err != nil {
			return nil, nil, err
		}
		hit(id, rowid, hitTitle, score)
	}
	return cands, byID, rows.Err()
}

// pieceHits passes hit the best piece of each entry among the newest scoreHits pieces that
// match (the bare rowid of min() is that of the best row), and adds the entry to seen.
func pieceHits(ctx context.Context, tx *sql.Tx, match string, scoreHits int, seen map[int64]bool,
	hit func(id string, rowid int64, kind hitKind, score float64)) error {
	rows, err := tx.QueryContext(ctx, `SELECT e.session_id, h.rowid, min(h.score), h.entry
		FROM (SELECT f.rowid AS rowid, p.entry AS entry, bm25(pieces_fts) AS score
			FROM pieces_fts f JOIN entry_pieces p ON p.id = f.rowid
			WHERE pieces_fts MATCH ? ORDER BY f.rowid DESC LIMIT ?) h
		JOIN entries e ON e.id = h.entry GROUP BY h.entry`, match, scoreHits)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var rowid, entry int64
		var score float64
		if err := rows.Scan(&id, &rowid, &score, &entry); err != nil {
			return err
		}
		hit(id, rowid, hitPiece, score)
		seen[entry] = true
	}
	return rows.Err()
}

// snippets fills the Snippet of each summary from its session's best hit, with [[ and ]]
// around the terms of match it holds. Each index is queried once for all the rows: a prefix term costs
// a merge of every matching term's postings per query, not per row.
func snippets(ctx context.Context, tx *sql.Tx, match string, out []Summary, byID map[string]*candidate) error {
	for _, q := range []struct {
		kind hitKind
		sql  string
	}{
		{hitEntry, `SELECT rowid, snippet(entries_fts, -1, '[[', ']]', '…', 16) FROM entries_fts
			WHERE entries_fts MATCH ?1 AND rowid >= ?2 AND rowid <= ?3
			AND +rowid IN (SELECT value FROM json_each(?4))`},
		{hitPiece, `SELECT rowid, snippet(pieces_fts, 0, '[[', ']]', '…', 16) FROM pieces_fts
			WHERE pieces_fts MATCH ?1 AND rowid >= ?2 AND rowid <= ?3
			AND +rowid IN (SELECT value FROM json_each(?4))`},
		{hitTitle, `SELECT rowid, snippet(titles_fts, 1, '[[', ']]', '…', 16) FROM titles_fts
			WHERE titles_fts MATCH ?1 AND rowid >= ?2 AND rowid <= ?3
			AND +rowid IN (SELECT value FROM json_each(?4))`},
	} {
		want := map[int64]*Summary{}
		var ids []int64
		for i := range out {
			if c := byID[out[i].ID]; c.n > 0 && c.kind == q.kind {
				want[c.hit] = &out[i]
				ids = append(ids, c.hit)
			}
		}
		if len(ids) == 0 {
			continue
		}
		list, err := json.Marshal(ids)
		if err != nil {
			return err
		}
		expr := match
		if q.kind != hitTitle {
			expr = anyTerm(match) // a hit of spreadHits holds only some of the terms
		}
		rows, err := tx.QueryContext(ctx, q.sql, expr, slices.Min(ids), slices.Max(ids), string(list))
		if err != nil {
			return err
		}
		for rows.Next() {
			var rowid int64
			var snip string
			if err := rows.Scan(&rowid, &snip); err != nil {
				rows.Close()
				return err
			}
			if sum := want[rowid]; sum != nil {
				sum.Snippet = snip
			}
		}
		if err := errors.Join(rows.Err(), rows.Close()); err != nil {
			return err
		}
	}
	return nil
}
