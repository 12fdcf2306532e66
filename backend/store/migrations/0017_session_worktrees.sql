-- 0017_session_worktrees: the git worktree a session runs in (backend/worktree), so that its
-- changes can be reviewed, applied or discarded after the session (and the app) ended. A session
-- without a worktree has no row; deleting the session deletes its row (the worktree itself is
-- the caller's to remove: deleting a session asks about it).
CREATE TABLE session_worktrees (
    session_id TEXT PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,
    repo       TEXT NOT NULL, -- the person's repository (its top folder)
    path       TEXT NOT NULL, -- the worktree's top folder
    branch     TEXT NOT NULL, -- agentdesk/<name>
    base       TEXT NOT NULL  -- the commit it started from
);
