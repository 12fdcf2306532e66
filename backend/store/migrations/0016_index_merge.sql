-- 0016_index_merge: FTS5 merges a level of its index once 16 segments wait there, not 4.
--
-- The writer commits a batch every 50 ms while agents stream, and each commit adds a segment to
-- entries_fts (and pieces_fts when long entries grow). With automerge at its default of 4, a
-- term was rewritten once per level of a base-4 tree: merging was a fifth of the writer's CPU in
-- a flood (BenchmarkWriterFlood). At 16 it is rewritten half as often. Searches read up to 15
-- segments a level instead of 3; on 100,000 entries written in 1,700 commits their p95 did not
-- move (BenchmarkSearch, 51 against 58 ms). The setting is kept in each table's %_config.
INSERT INTO entries_fts (entries_fts, rank) VALUES ('automerge', 16);
INSERT INTO pieces_fts (pieces_fts, rank) VALUES ('automerge', 16);
