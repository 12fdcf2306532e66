-- 0002_permissions: the agent's permission requests and how each was decided.
-- Applied once (the migrator records it in PRAGMA user_version), like every migration.

-- request_id is the JSON-RPC id rendered as text (0, "p-1"): unique within a session only.
-- tool_call_id is the entry id of the tool card the request is about; options is the JSON
-- array of {id, name, kind} as the agent gave it. The decision columns are all NULL while the
-- request is open and all set once it is decided. The UNIQUE index also serves the cascade
-- delete and the per-session read.
CREATE TABLE permissions (
    id           INTEGER PRIMARY KEY,
    session_id   TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    turn         INTEGER NOT NULL DEFAULT 0,
    request_id   TEXT NOT NULL,
    tool_call_id TEXT NOT NULL DEFAULT '',
    title        TEXT NOT NULL DEFAULT '',
    options      TEXT NOT NULL DEFAULT '[]',
    requested_at INTEGER NOT NULL,
    outcome      TEXT CHECK (outcome IN ('selected', 'cancelled')),
    option_id    TEXT,
    decided_by   TEXT CHECK (decided_by IN ('user', 'rule', 'cancel')),
    decided_at   INTEGER,
    CHECK ((outcome IS NULL) = (decided_by IS NULL) AND (outcome IS NULL) = (decided_at IS NULL)),
    UNIQUE (session_id, request_id)
);
