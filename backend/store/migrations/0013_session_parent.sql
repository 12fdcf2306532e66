-- 0013_session_parent: a subagent session (ACP subagent_update) is saved as a session of its own,
-- under agentdesk's id for it, with the id of the session that started it ('' for every session a
-- person started), so the history shows the tree. Deleting a session deletes its children with it
-- (Store.DeleteSession); the index finds a session's children.
ALTER TABLE sessions ADD COLUMN parent_id TEXT NOT NULL DEFAULT '';
CREATE INDEX sessions_by_parent ON sessions(parent_id) WHERE parent_id <> '';
