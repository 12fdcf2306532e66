-- 0005_text_pieces: a streamed entry's text grows in bounded pieces (pieces.go).
--
-- Appending with `text = text || ?` rewrote the whole entry, and re-indexed it, every batch:
-- a long streamed message cost time quadratic in its length. Now an entry's text is
-- entries.text followed by its entry_pieces rows in id order. Appends extend the last piece
-- (entries.text itself while it has none) up to 32 KiB and then start a new one, so a batch
-- rewrites and re-indexes at most one 32 KiB piece per entry besides its new text. Only entries
-- streamed past 32 KiB have pieces; an UpsertEntry puts the whole text back in entries.text.
-- pieces_fts indexes the pieces as entries_fts indexes entries.text, kept by the writer too.
-- Existing rows need no change: an entry without pieces reads as before.
CREATE TABLE entry_pieces (
    id    INTEGER PRIMARY KEY,
    entry INTEGER NOT NULL REFERENCES entries (id) ON DELETE CASCADE,
    text  TEXT NOT NULL DEFAULT ''
);
CREATE INDEX entry_pieces_entry ON entry_pieces (entry, id);

CREATE VIRTUAL TABLE pieces_fts USING fts5 (
    text,
    content = 'entry_pieces', content_rowid = 'id',
    tokenize = 'unicode61 remove_diacritics 2',
    prefix = '3'
);
