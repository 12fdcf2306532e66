-- 0007_session_links: a session may come from another (links.go): a fork "from here", a rerun
-- of an edited message, a continuation in another agent. The row belongs to the child and goes
-- with it; the parent is not a foreign key, so deleting the parent leaves its children and
-- their link (shown as "parent deleted", with the title and agent it had when they branched).
CREATE TABLE session_links (
    child        TEXT PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,
    parent       TEXT NOT NULL,
    parent_turn  INTEGER NOT NULL DEFAULT 0,
    kind         TEXT NOT NULL CHECK (kind IN ('fork', 'rerun', 'continue-agent')),
    parent_title TEXT NOT NULL DEFAULT '',
    parent_agent TEXT NOT NULL DEFAULT '',
    created_at   INTEGER NOT NULL
);
CREATE INDEX session_links_parent ON session_links (parent);
