-- 0001_init: the first agentdesk history schema.
-- Times are INTEGER unix milliseconds. Every child row cascades from its session.

-- Marks the file as an agentdesk history ("ADK1"); Open refuses migrated files without it.
PRAGMA application_id = 1094994737;

CREATE TABLE sessions (
    id               TEXT PRIMARY KEY,
    agent_id         TEXT NOT NULL DEFAULT '',
    agent_name       TEXT NOT NULL DEFAULT '',
    agent_session_id TEXT NOT NULL DEFAULT '',
    cwd              TEXT NOT NULL DEFAULT '',
    title            TEXT NOT NULL DEFAULT '',
    outcome          TEXT NOT NULL DEFAULT '',
    created_at       INTEGER NOT NULL,
    updated_at       INTEGER NOT NULL
);
CREATE INDEX sessions_updated ON sessions (updated_at);

CREATE TABLE turns (
    session_id  TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    turn        INTEGER NOT NULL,
    prompt      TEXT NOT NULL DEFAULT '',
    started_at  INTEGER NOT NULL,
    ended_at    INTEGER,
    stop_reason TEXT NOT NULL DEFAULT '',
    error       TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (session_id, turn)
);
-- Open looks for turns left open by a crash; keep that lookup off a full scan.
CREATE INDEX turns_open ON turns (session_id) WHERE ended_at IS NULL;

-- entries has an explicit INTEGER PRIMARY KEY because entries_fts is an external-content
-- index keyed by it: VACUUM may renumber implicit rowids, never an INTEGER PRIMARY KEY.
-- (session_id, entry_id) is the natural key.
CREATE TABLE entries (
    id         INTEGER PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    entry_id   TEXT NOT NULL,
    turn       INTEGER NOT NULL DEFAULT 0,
    seq        INTEGER NOT NULL DEFAULT 0,
    kind       TEXT NOT NULL DEFAULT '',
    status     TEXT NOT NULL DEFAULT '',
    title      TEXT NOT NULL DEFAULT '',
    text       TEXT NOT NULL DEFAULT '',
    body       BLOB,
    UNIQUE (session_id, entry_id)
);
CREATE INDEX entries_seq ON entries (session_id, seq);

CREATE TABLE messages (
    id         INTEGER PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL,
    direction  TEXT NOT NULL CHECK (direction IN ('in', 'out')),
    method     TEXT NOT NULL DEFAULT '',
    json       TEXT NOT NULL DEFAULT '',
    at         INTEGER NOT NULL
);
CREATE UNIQUE INDEX messages_seq ON messages (session_id, seq);

-- Full-text search. entries_fts indexes entries (title, text) without a copy of the text;
-- titles_fts is small and keeps its own copy, keyed by session_id.
CREATE VIRTUAL TABLE entries_fts USING fts5 (
    title, text,
    content = 'entries', content_rowid = 'id',
    tokenize = 'unicode61 remove_diacritics 2'
);
CREATE VIRTUAL TABLE titles_fts USING fts5 (
    session_id UNINDEXED, title,
    tokenize = 'unicode61 remove_diacritics 2'
);

CREATE TRIGGER entries_fts_insert AFTER INSERT ON entries BEGIN
    INSERT INTO entries_fts (rowid, title, text) VALUES (new.id, new.title, new.text);
END;
CREATE TRIGGER entries_fts_delete AFTER DELETE ON entries BEGIN
    INSERT INTO entries_fts (entries_fts, rowid, title, text) VALUES ('delete', old.id, old.title, old.text);
END;
CREATE TRIGGER entries_fts_update AFTER UPDATE OF title, text ON entries
WHEN old.title IS NOT new.title OR old.text IS NOT new.text BEGIN
    INSERT INTO entries_fts (entries_fts, rowid, title, text) VALUES ('delete', old.id, old.title, old.text);
    INSERT INTO entries_fts (rowid, title, text) VALUES (new.id, new.title, new.text);
END;

CREATE TRIGGER titles_fts_insert AFTER INSERT ON sessions WHEN new.title != '' BEGIN
    INSERT INTO titles_fts (session_id, title) VALUES (new.id, new.title);
END;
CREATE TRIGGER titles_fts_delete AFTER DELETE ON sessions BEGIN
    DELETE FROM titles_fts WHERE session_id = old.id;
END;
CREATE TRIGGER titles_fts_update AFTER UPDATE OF title ON sessions
WHEN old.title IS NOT new.title BEGIN
    DELETE FROM titles_fts WHERE session_id = old.id;
    INSERT INTO titles_fts (session_id, title) SELECT new.id, new.title WHERE new.title != '';
END;
