package store

import (
	"context"
	"fmt"
	"strings"
)

// SavedAgentSessions maps those of ids (an agent's own session ids, as session/list gives them)
// that a saved session of agent agentID is in to that session's id, the most recently updated
// when several are. The window marks those as "in your history" and opens ours instead of
// importing a second copy. It reads committed data only.
func (s *Store) SavedAgentSessions(ctx context.Context, agentID string, ids []string) (map[string]string, error) {
	out := make(map[string]string, len(ids))
	for len(ids) > 0 {
		n := min(len(ids), maxLookup) // an agent's page may be any size; SQLite bounds the variables
		if err := s.savedAgentSessions(ctx, agentID, ids[:n], out); err != nil {
			return nil, fmt.Errorf("find saved sessions of agent %q: %w", agentID, err)
		}
		ids = ids[n:]
	}
	return out, nil
}

// maxLookup is how many ids one query looks up.
const maxLookup = 500

func (s *Store) savedAgentSessions(ctx context.Context, agentID string, ids []string, out map[string]string) error {
	args := []any{agentID}
	for _, id := range ids {
		args = append(args, id)
	}
	marks := strings.TrimSuffix(strings.Repeat("?,", len(ids)), ",")
	rows, err := s.db.QueryContext(ctx, `SELECT agent_session_id, id FROM sessions
		WHERE agent_id = ? AND agent_session_id IN (`+marks+`) ORDER BY updated_at`, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var theirs, ours string
		if err := rows.Scan(&theirs, &ours); err != nil {
			return err
		}
		out[theirs] = ours // the newest last
	}
	return rows.Err()
}
