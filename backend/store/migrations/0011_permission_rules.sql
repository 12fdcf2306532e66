-- 0011_permission_rules: agentdesk's own permission rules, a place for the few settings that
-- belong with the history (the rules' global pause), and the audit columns of every decision.

-- A rule as backend/rules matches it: '' in a match column matches anything. position keeps
-- the order rules were made in (the matcher's last tie-break). fired and last_fired_at count
-- the requests the rule answered, kept here so that deleting a session does not rewrite them.
CREATE TABLE rules (
    id            TEXT PRIMARY KEY,
    position      INTEGER NOT NULL,
    agent_id      TEXT NOT NULL DEFAULT '',
    folder        TEXT NOT NULL DEFAULT '',
    kind          TEXT NOT NULL DEFAULT '',
    tool          TEXT NOT NULL DEFAULT '',
    path          TEXT NOT NULL DEFAULT '',
    command       TEXT NOT NULL DEFAULT '',
    decision      TEXT NOT NULL CHECK (decision IN ('allow', 'reject')),
    disabled      INTEGER NOT NULL DEFAULT 0,
    created_at    INTEGER NOT NULL,
    fired         INTEGER NOT NULL DEFAULT 0,
    last_fired_at INTEGER
);

CREATE TABLE preferences (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

-- permissions gains the tool kind (the audit view filters on it), the rule that decided
-- (rule_id, with its words as they were: the rule may be edited or deleted later), and a
-- decided_by of 'cli' (agentdesk run --permissions allow|reject, no longer counted as a rule).
-- SQLite cannot change a CHECK in place: the table is rebuilt, its rows and ids kept.
CREATE TABLE permissions_new (
    id           INTEGER PRIMARY KEY,
    session_id   TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    turn         INTEGER NOT NULL DEFAULT 0,
    request_id   TEXT NOT NULL,
    tool_call_id TEXT NOT NULL DEFAULT '',
    title        TEXT NOT NULL DEFAULT '',
    tool_kind    TEXT NOT NULL DEFAULT '',
    options      TEXT NOT NULL DEFAULT '[]',
    requested_at INTEGER NOT NULL,
    outcome      TEXT CHECK (outcome IN ('selected', 'cancelled')),
    option_id    TEXT,
    decided_by   TEXT CHECK (decided_by IN ('user', 'rule', 'cancel', 'cli')),
    decided_at   INTEGER,
    rule_id      TEXT,
    rule_label   TEXT,
    CHECK ((outcome IS NULL) = (decided_by IS NULL) AND (outcome IS NULL) = (decided_at IS NULL)),
    UNIQUE (session_id, request_id)
);
INSERT INTO permissions_new (id, session_id, turn, request_id, tool_call_id, title, options,
    requested_at, outcome, option_id, decided_by, decided_at)
SELECT id, session_id, turn, request_id, tool_call_id, title, options, requested_at, outcome,
    option_id, decided_by, decided_at FROM permissions;
DROP TABLE permissions;
ALTER TABLE permissions_new RENAME TO permissions;
-- The audit view lists decisions across sessions, newest first.
CREATE INDEX permissions_decided ON permissions (decided_at) WHERE decided_at IS NOT NULL;
