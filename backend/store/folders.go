package store

import (
	"context"
	"database/sql"
)

// RecentFolders returns the project folders of saved sessions, the latest started in first, each
// once: agentID's own first (when not ""), then the others'; at most limit (<= 0: 10). It reads
// committed data only.
func (s *Store) RecentFolders(ctx context.Context, agentID string, limit int) ([]string, error) {
	if limit <= 0 {
		limit = 10
	}
	return queryAll(ctx, s.db, "list recent folders", func(rows *sql.Rows) (cwd string, err error) {
		return cwd, rows.Scan(&cwd)
	}, `SELECT cwd FROM sessions WHERE cwd <> ''
		GROUP BY cwd ORDER BY max(agent_id = ?) DESC, max(created_at) DESC, cwd LIMIT ?`, agentID, limit)
}
