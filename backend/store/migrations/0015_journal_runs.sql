-- 0015_journal_runs: a journal row holds a run of consecutive messages of one session with one
-- direction and method (journalruns.go): n messages numbered seq .. seq+n-1, their lines joined
-- by a line break in json (a JSON-RPC line holds none), at the first one's time, and at_steps
-- the others' times as milliseconds after the message before, comma-separated ('' for n = 1).
-- A flood journals a message per chunk; a row per run, not per message, takes a fraction of
-- the writer's time. Rows written before are runs of one.
ALTER TABLE messages ADD COLUMN n INTEGER NOT NULL DEFAULT 1 CHECK (n >= 1);
ALTER TABLE messages ADD COLUMN at_steps TEXT NOT NULL DEFAULT '';
