-- 0003_search_speed: make searches cost milliseconds on 100,000 entries (see search.go).

-- A search term is a prefix ("con"*). Without a prefix index FTS5 merges the postings of
-- every word starting with it (conflict, config, contains...) on each query, tens of
-- milliseconds for a short prefix of common words. Indexing 3-letter prefixes makes those
-- as cheap as a whole word, for about 15% more file size; shorter terms match whole words
-- only (see matchExpr). The table is rebuilt from entries; the 0001 triggers refer to it by
-- name and keep working.
DROP TABLE entries_fts;
CREATE VIRTUAL TABLE entries_fts USING fts5 (
    title, text,
    content = 'entries', content_rowid = 'id',
    tokenize = 'unicode61 remove_diacritics 2',
    prefix = '3'
);
INSERT INTO entries_fts (entries_fts) VALUES ('rebuild');

-- A search maps thousands of hits (entry ids) to their sessions. This narrow index does it
-- without reading the entries' rows (~1.6 KB each, text and body): 3x faster. The planner
-- prefers the rowid, so the search names it (INDEXED BY entries_hit).
CREATE INDEX entries_hit ON entries (id, session_id);
