-- 0018_worktree_project: a session's worktree also keeps the person's folder the session was
-- started for (the project: the recent folders and the start form's remembered worktree switch
-- use it, never the worktree's own folder), and whether the worktree was discarded (the session
-- stays in the history; its row says the worktree is gone).
ALTER TABLE session_worktrees ADD COLUMN project TEXT NOT NULL DEFAULT '';
ALTER TABLE session_worktrees ADD COLUMN discarded INTEGER NOT NULL DEFAULT 0;
