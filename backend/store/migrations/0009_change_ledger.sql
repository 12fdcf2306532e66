-- 0009_change_ledger: the change ledger's records (backend/changes keeps the content itself in
-- the data dir). Each turn has a snapshot of the session's folders at its start and at its end
-- (trees: JSON {folder: tree hash}); ledger_files lists what each turn changed, for "which
-- sessions touched this file"; ledger_reverts records each revert (and undo) with the folders'
-- trees just before and after it, so it can be undone. All go with their session.
CREATE TABLE ledger_snapshots (
    session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    turn       INTEGER NOT NULL,
    phase      TEXT NOT NULL CHECK (phase IN ('start', 'end')),
    trees      TEXT NOT NULL,
    notes      TEXT NOT NULL DEFAULT '[]',
    at         INTEGER NOT NULL,
    PRIMARY KEY (session_id, turn, phase)
);

CREATE TABLE ledger_files (
    session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    turn       INTEGER NOT NULL,
    root       TEXT NOT NULL,
    path       TEXT NOT NULL,
    change     TEXT NOT NULL,
    at         INTEGER NOT NULL,
    PRIMARY KEY (session_id, turn, root, path)
);
CREATE INDEX ledger_files_path ON ledger_files (path, root);

CREATE TABLE ledger_reverts (
    id         TEXT PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    turn       INTEGER NOT NULL,
    request    TEXT NOT NULL,
    before     TEXT NOT NULL,
    after      TEXT NOT NULL,
    files      TEXT NOT NULL,
    undo_of    TEXT NOT NULL DEFAULT '',
    undone     INTEGER NOT NULL DEFAULT 0,
    at         INTEGER NOT NULL
);
CREATE INDEX ledger_reverts_session ON ledger_reverts (session_id, at);
