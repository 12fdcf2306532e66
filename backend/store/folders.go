package store

import (
	"context"
	"fmt"
)

// RecentFolders returns the project folders of saved sessions, the latest started in first, each
// once: agentID's own first (when not ""), then the others'; at most limit (<= 0: 10). It reads
// committed data only.
func (s *Store) RecentFolders(ctx context.Context, agentID string, limit int) ([]string, error) {
	if limit <= 0 {
		limit = 10
	}
	rows, err := s.db.QueryContext(ctx, `SELECT cwd FROM sessions WHERE cwd <> ''
		GROUP BY cwd ORDER BY max(agent_id = ?) DESC, max(created_at) DESC, cwd LIMIT ?`, agentID, limit)
	if err != nil {
		return nil, fmt.Errorf("list recent folders: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var cwd string
		if err := rows.Scan(&cwd); err != nil {
			return nil, fmt.Errorf("list recent folders: %w", err)
		}
		out = append(out, cwd)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list recent folders: %w", err)
	}
	return out, nil
}
