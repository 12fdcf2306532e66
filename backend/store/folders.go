package store

import (
	"context"
	"database/sql"
)

// RecentFolders returns the project folders of saved sessions (for a session in a worktree, the
// person's folder it was started for, not the worktree's), the latest started in first, each
// once: agentID's own first (when not ""), then the others'; at most limit (<= 0: 10). It reads
// committed data only.
func (s *Store) RecentFolders(ctx context.Context, agentID string, limit int) ([]string, error) {
	if limit <= 0 {
		limit = 10
	}
	return queryAll(ctx, s.db, "list recent folders", func(rows *sql.Rows) (cwd string, err error) {
		return cwd, rows.Scan(&cwd)
	}, `SELECT coalesce(nullif(w.project, ''), s.cwd) AS folder FROM sessions s
		LEFT JOIN session_worktrees w ON w.session_id = s.id WHERE s.cwd <> ''
		GROUP BY folder ORDER BY max(s.agent_id = ?) DESC, max(s.created_at) DESC, folder LIMIT ?`, agentID, limit)
}
