package store

// A history nobody can write keeps what a crashed process left in it: Open settles that
// (markInterrupted), but a read-only copy cannot be written. When no other Store holds such a
// file, its sessions are read as markInterrupted would have left them, so `agentdesk history`
// on a copy of a crashed database shows the same outcomes as the window after a restart.

// settledOutcome is the outcome of a session whose process is gone, as markInterrupted writes
// it and a read-only store reads it: a session with an open turn died mid-turn (interrupted);
// one left ready or running without an open turn died idle and reads as its last stop reason,
// or ended; any other keeps its outcome. It refers to the session as s and has no parameters,
// so it can stand in any query's column list or SET clause.
const settledOutcome = `CASE
	WHEN EXISTS (SELECT 1 FROM turns t WHERE t.session_id = s.id AND t.ended_at IS NULL) THEN '` + OutcomeInterrupted + `'
	WHEN s.outcome IN ('` + OutcomeReady + `', '` + OutcomeRunning + `') THEN coalesce((SELECT t.stop_reason
		FROM turns t WHERE t.session_id = s.id AND t.ended_at IS NOT NULL AND t.stop_reason <> ''
		ORDER BY t.turn DESC LIMIT 1), '` + OutcomeEnded + `')
	ELSE s.outcome END`

// sessionColumns are the columns scanSession reads, prefixed by the sessions alias s.
const sessionColumns = `s.id, s.agent_id, s.agent_name, s.agent_session_id, s.cwd, s.dirs, s.title,
	s.outcome, s.created_at, s.updated_at, s.agent_cmd, s.parent_id, ` + projectColumn

// projectColumn is Session.Project: the person's folder of a session in a worktree, else cwd.
const projectColumn = `coalesce((SELECT nullif(w.project, '') FROM session_worktrees w WHERE w.session_id = s.id), s.cwd)`

// settledColumns are sessionColumns with the outcome settled (settledOutcome).
const settledColumns = `s.id, s.agent_id, s.agent_name, s.agent_session_id, s.cwd, s.dirs, s.title,
	` + settledOutcome + `, s.created_at, s.updated_at, s.agent_cmd, s.parent_id, ` + projectColumn

// columns returns the session columns this store reads: settled for a read-only store of a
// file no other Store holds, as stored otherwise.
func (s *Store) columns() string {
	if s.settle {
		return settledColumns
	}
	return sessionColumns
}
