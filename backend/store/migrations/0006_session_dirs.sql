-- 0006_session_dirs: a session may have folders beside its cwd (ACP's additionalDirectories),
-- kept so that continuing it opens the same folders. One absolute path per line ('' for none):
-- the hub refuses a folder whose path holds a newline.
ALTER TABLE sessions ADD COLUMN dirs TEXT NOT NULL DEFAULT '';
