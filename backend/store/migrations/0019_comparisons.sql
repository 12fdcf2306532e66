-- 0019_comparisons: one task given to several agents at once (issue 33). A comparison is the
-- prompt, the folder and the check command; its members are the sessions it started (each in a
-- worktree of its own), in the order given; a session's checks are the check command's runs in
-- its worktree after its turns. Deleting a session deletes its membership and its checks; a
-- comparison without members is kept until deleted with the last (the store does it).
CREATE TABLE comparisons (
    id            TEXT PRIMARY KEY,
    cwd           TEXT NOT NULL,
    prompt        TEXT NOT NULL,
    check_command TEXT NOT NULL DEFAULT '',
    created_at    INTEGER NOT NULL
);
CREATE TABLE comparison_members (
    comparison_id TEXT NOT NULL REFERENCES comparisons (id) ON DELETE CASCADE,
    session_id    TEXT NOT NULL UNIQUE REFERENCES sessions (id) ON DELETE CASCADE,
    position      INTEGER NOT NULL,
    PRIMARY KEY (comparison_id, position)
);
CREATE TABLE session_checks (
    session_id  TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    turn        INTEGER NOT NULL,
    command     TEXT NOT NULL,
    exit_code   INTEGER NOT NULL, -- -1: it did not exit by itself (killed, timed out, failed to start)
    output      TEXT NOT NULL,    -- its last 64 KiB, standard output and error together, masked
    duration_ms INTEGER NOT NULL,
    error       TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (session_id, turn)
);
