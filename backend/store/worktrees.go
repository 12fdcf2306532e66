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
}

// SetWorktree queues recording the worktree session sessionID runs in (replacing one recorded
// before). Queue it after the session's CreateSession; a missing session is a reported error.
func (w *Writer) SetWorktree(sessionID string, t Worktree) {
	w.enqueue(&worktreeOp{sessionID: sessionID, t: t}, false)
}

// ForgetWorktree queues forgetting the worktree of session sessionID, once it is discarded:
// the session stays in the history, no longer in a worktree.
func (w *Writer) ForgetWorktree(sessionID string) {
	w.enqueue(&worktreeOp{sessionID: sessionID, forget: true}, false)
}

type worktreeOp struct {
	sessionID string
	t         Worktree
	forget    bool
}

func (o *worktreeOp) String() string {
	if o.forget {
		return fmt.Sprintf("forget the worktree of session %q", o.sessionID)
	}
	return fmt.Sprintf("record the worktree %s of session %q", o.t.Path, o.sessionID)
}

func (o *worktreeOp) exec(ctx context.Context, b *batchTx) error {
	if o.forget {
		_, err := b.exec(ctx, `DELETE FROM session_worktrees WHERE session_id = ?`, o.sessionID)
		return err
	}
	_, err := b.exec(ctx, `INSERT INTO session_worktrees (session_id, repo, path, branch, base) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (session_id) DO UPDATE SET repo = excluded.repo, path = excluded.path,
		branch = excluded.branch, base = excluded.base`, o.sessionID, o.t.Repo, o.t.Path, o.t.Branch, o.t.Base)
	return err
}

// Worktree returns the worktree session id runs in, and false when it runs in none (or is not
// in the history). It reads committed rows only (Flush the writer first for the latest).
func (s *Store) Worktree(ctx context.Context, id string) (Worktree, bool, error) {
	var t Worktree
	err := s.db.QueryRowContext(ctx, `SELECT repo, path, branch, base FROM session_worktrees WHERE session_id = ?`, id).
		Scan(&t.Repo, &t.Path, &t.Branch, &t.Base)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return Worktree{}, false, nil
	case err != nil:
		return Worktree{}, false, fmt.Errorf("read the worktree of session %q: %w", id, err)
	}
	return t, true, nil
}
