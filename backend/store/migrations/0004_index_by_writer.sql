-- 0004_index_by_writer: the writer keeps entries_fts in step with entries (searchindex.go).
--
-- The triggers made every entry write a statement with a statement journal, and SQLite opens a
-- savepoint on the FTS table for each such statement, at which FTS5 writes its pending terms
-- out as a new index segment: a streamed reply, rewritten every batch, cost one tiny segment
-- per write and 13% of the app's CPU in a flood. The writer now updates the index once per
-- batch, just before the commit, in plain single-row statements: one flush per commit. The
-- index is up to date when this runs (the triggers kept it so), so nothing is rebuilt.
-- titles_fts keeps its triggers: titles change rarely.
DROP TRIGGER entries_fts_insert;
DROP TRIGGER entries_fts_delete;
DROP TRIGGER entries_fts_update;
