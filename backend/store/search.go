package store

import (
	"strings"
	"unicode"
)

// maxTerms bounds the FTS expression built from a search box.
const maxTerms = 16

// matchExpr turns free text into a safe FTS5 MATCH expression: every run of letters, digits
// and marks becomes a quoted prefix term ("foo"*), and the terms are ANDed. Quotes, *, -, ^,
// parentheses and FTS keywords (NEAR, AND, OR, NOT) therefore never reach the FTS parser as
// syntax. It returns "" if the text has no term.
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
		b.WriteString(`"*`)
		n++
	}
	return b.String()
}

// searchSQL ranks sessions for a MATCH expression (?1), at most ?2 rows.
//
// Every matching entry (title weighs 2, text 1) and session title (weighs 3 times an entry)
// is a hit scored by bm25 (more negative is better). A session's rank is the sum of its hits'
// scores, so several good hits beat one weak one; its snippet comes from its best hit and is
// only computed for the rows returned.
const searchSQL = `WITH hits AS (
	SELECT e.session_id AS sid, 0 AS src, entries_fts.rowid AS hit,
		bm25(entries_fts, 2.0, 1.0) AS score
	FROM entries_fts JOIN entries e ON e.id = entries_fts.rowid
	WHERE entries_fts MATCH ?1
	UNION ALL
	SELECT session_id, 1, rowid, 3.0 * bm25(titles_fts)
	FROM titles_fts WHERE titles_fts MATCH ?1
), ranked AS (
	SELECT sid, src, hit, sum(score) OVER (PARTITION BY sid) AS total,
		row_number() OVER (PARTITION BY sid ORDER BY score, src DESC, hit) AS n
	FROM hits
)
SELECT ` + sessionColumns + `,
	(SELECT count(*) FROM turns t WHERE t.session_id = s.id),
	CASE r.src
	WHEN 0 THEN (SELECT snippet(entries_fts, -1, '[[', ']]', '…', 16) FROM entries_fts
		WHERE entries_fts MATCH ?1 AND entries_fts.rowid = r.hit)
	ELSE (SELECT snippet(titles_fts, 1, '[[', ']]', '…', 16) FROM titles_fts
		WHERE titles_fts MATCH ?1 AND titles_fts.rowid = r.hit)
	END
FROM ranked r JOIN sessions s ON s.id = r.sid
WHERE r.n = 1
ORDER BY r.total, s.updated_at DESC, s.id
LIMIT ?2`
