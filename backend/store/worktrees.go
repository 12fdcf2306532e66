package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// Worktree is the git worktree a session runs in (backend/worktree.Tree as the store keeps it).
type Worktree struct {
	Repo   string `json:"repo"`   // the person's repository: its top folder
	Path   string `json:"path"`   // the worktree's top folder
	Branch string `json:"branch"` // agentdesk/<name>
	Base   string `json:"base"`   // the commit it started from
	// Project is the person's folder the session was started for (in Repo); "" for a session
	// recorded before agentdesk kept it.
	Project string `json:"project"`
	// Discarded: the worktree and its branch were removed (DiscardedWorktree).
	Discarded bool `json:"discarded,omitempty"`
}

// SetWorktree queues recording the worktree session sessionID runs in (replacing one recorded
// before). Queue it after the session's CreateSession; a missing session is a reported error.
func (w *Writer) SetWorktree(sessionID string, t Worktree) {
	w.enqueue(&worktreeOp{sessionID: sessionID, t: t}, false)
}

// DiscardedWorktree queues recording that session sessionID's worktree was removed: the
// session stays in the history, its worktree marked Discarded.
func (w *Writer) DiscardedWorktree(sessionID string) {
	w.enqueue(&worktreeOp{sessionID: sessionID, discarded: true}, false)
}

type worktreeOp struct {
	sessionID string
	t         Worktree
	discarded bool
}

func (o *worktreeOp) String() string {
	if o.discarded {
		return fmt.Sprintf("mark the worktree of session %q discarded", o.sessionID)
	}
	return fmt.Sprintf("record the worktree %s of session %q", o.t.Path, o.sessionID)
}

func (o *worktreeOp) exec(ctx context.Context, b *batchTx) error {
	if o.discarded {
		_, err := b.exec(ctx, `UPDATE session_worktrees SET discarded = 1 WHERE session_id = ?`, o.sessionID)
		return err
	}
	_, err := b.exec(ctx, `INSERT INTO session_worktrees (session_id, repo, path, branch, base, project) VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT (session_id) DO UPDATE SET repo = excluded.repo, path = excluded.path,
		branch = excluded.branch, base = excluded.base, project = excluded.project, discarded = 0`,
		o.sessionID, o.t.Repo, o.t.Path, o.t.Branch, o.t.Base, o.t.Project)
	return err
}

// Worktree returns the worktree session id runs in (Discarded once removed), and false when it
// runs in none (or is not in the history). It reads committed rows only (Flush the writer first
// for the latest).
func (s *Store) Worktree(ctx context.Context, id string) (Worktree, bool, error) {
	var t Worktree
	err := s.db.QueryRowContext(ctx, `SELECT repo, path, branch, base, project, discarded FROM session_worktrees WHERE session_id = ?`, id).
		Scan(&t.Repo, &t.Path, &t.Branch, &t.Base, &t.Project, &t.Discarded)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return Worktree{}, false, nil
	case err != nil:
		return Worktree{}, false, fmt.Errorf("read the worktree of session %q: %w", id, err)
	}
	return t, true, nil
}

// WorktreeChosen says whether the latest session started for folder project ran in a worktree:
// the start form's switch, remembered per project. False for a folder without sessions.
func (s *Store) WorktreeChosen(ctx context.Context, project string) (bool, error) {
	var chosen bool
	err := s.db.QueryRowContext(ctx, `SELECT w.session_id IS NOT NULL FROM sessions s
		LEFT JOIN session_worktrees w ON w.session_id = s.id
		WHERE s.cwd = ? OR w.project = ? ORDER BY s.created_at DESC, s.rowid DESC LIMIT 1`, project, project).Scan(&chosen)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return false, fmt.Errorf("read whether %s starts in a worktree: %w", project, err)
	}
	return chosen, nil
}
