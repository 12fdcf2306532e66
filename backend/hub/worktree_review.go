package hub

import (
	"context"
	"errors"
	"fmt"

	"agentdesk/backend/store"
	"agentdesk/backend/worktree"
)

// ErrNoWorktree is a worktree verb (review, apply, commit, discard) asked of a session that
// does not run in a worktree, or whose worktree was discarded.
var ErrNoWorktree = errors.New("the session was not started in a worktree, or its worktree was discarded")

// worktreeOf returns the Manager and session id's worktree as the history keeps it.
func (h *Hub) worktreeOf(ctx context.Context, id string) (*worktree.Manager, worktree.Tree, error) {
	m := h.manager()
	if m == nil || h.store == nil {
		return nil, worktree.Tree{}, ErrNoWorktrees
	}
	h.flush(ctx)
	t, ok, err := h.store.Worktree(ctx, id)
	if err != nil {
		return nil, worktree.Tree{}, err
	}
	if !ok || t.Discarded {
		return nil, worktree.Tree{}, ErrNoWorktree
	}
	return m, treeOf(t), nil
}

// manager is the hub's worktree Manager (SetWorktrees), or nil.
func (h *Hub) manager() *worktree.Manager {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.worktrees
}

// treeOf is a worktree the history keeps as the Manager takes it.
func treeOf(t store.Worktree) worktree.Tree {
	return worktree.Tree{Repo: t.Repo, Path: t.Path, Branch: t.Branch, Base: t.Base}
}

// WorktreeStatus is how session id's worktree stands against its base: commits ahead and
// behind, and uncommitted files. ErrNoWorktree for a session in none. It blocks while git
// reads the worktree.
func (h *Hub) WorktreeStatus(ctx context.Context, id string) (worktree.Status, error) {
	m, t, err := h.worktreeOf(ctx, id)
	if err != nil {
		return worktree.Status{}, err
	}
	return m.Status(ctx, t)
}

// ReviewWorktree is everything session id changed in its worktree against its base, with
// git's diff. ErrNoWorktree for a session in none. It blocks while git reads the worktree.
func (h *Hub) ReviewWorktree(ctx context.Context, id string) (worktree.Review, error) {
	m, t, err := h.worktreeOf(ctx, id)
	if err != nil {
		return worktree.Review{}, err
	}
	return m.Review(ctx, t)
}

// ApplyWorktree brings what session id changed in its worktree into the person's working tree
// (worktree.Manager.Apply): with write false, or with a conflict, it only says what it would
// do. ErrTurnRunning while a turn of the session runs here (its files are still moving);
// ErrNoWorktree for a session in none.
func (h *Hub) ApplyWorktree(ctx context.Context, id string, write bool) (worktree.ApplyResult, error) {
	m, t, err := h.worktreeOf(ctx, id)
	if err != nil {
		return worktree.ApplyResult{}, err
	}
	if write && h.running(id) {
		return worktree.ApplyResult{}, ErrTurnRunning
	}
	return m.Apply(ctx, t, write)
}

// CommitWorktree commits everything session id changed on its worktree's branch with message
// and returns the commit's id. ErrTurnRunning while a turn runs here; ErrNoWorktree;
// worktree.ErrNothingToCommit.
func (h *Hub) CommitWorktree(ctx context.Context, id, message string) (string, error) {
	m, t, err := h.worktreeOf(ctx, id)
	if err != nil {
		return "", err
	}
	if h.running(id) {
		return "", ErrTurnRunning
	}
	return m.Commit(ctx, t, message)
}

// DiscardWorktree removes session id's worktree and its branch, with whatever they hold, and
// marks it so in the history; the session stays in the history. A live session is closed first
// (its agent stopped), since its folder goes. ErrNoWorktree for a session in none.
func (h *Hub) DiscardWorktree(ctx context.Context, id string) error {
	m, t, err := h.worktreeOf(ctx, id)
	if err != nil {
		return err
	}
	if h.live(id) {
		if err := h.Close(ctx, id); err != nil {
			return fmt.Errorf("discard the worktree: close the session: %w", err)
		}
	}
	if err := m.Discard(ctx, t); err != nil {
		return err
	}
	h.store.Writer().DiscardedWorktree(id)
	h.flush(ctx)
	return nil
}

// SessionWorktree is the worktree session id runs in, as the history keeps it (its Cwd
// unset). ErrNoWorktree for a session in none.
func (h *Hub) SessionWorktree(ctx context.Context, id string) (worktree.Tree, error) {
	_, t, err := h.worktreeOf(ctx, id)
	return t, err
}

// WorktreeView is a session's worktree as the window shows it: where, and how it stands.
type WorktreeView struct {
	store.Worktree
	worktree.Status
	// StatusError is git's words when the status could not be read (the worktree's folder
	// was removed by hand, say).
	StatusError string `json:"statusError,omitempty"`
	// ComparisonID is the comparison the session belongs to, "" for none.
	ComparisonID string `json:"comparisonId,omitempty"`
}

// ViewWorktree is session id's worktree with its status, or nil when it runs in none. A
// discarded one comes back without a status. It blocks while git reads the worktree.
func (h *Hub) ViewWorktree(ctx context.Context, id string) (*WorktreeView, error) {
	if h.store == nil {
		return nil, nil
	}
	h.flush(ctx)
	t, ok, err := h.store.Worktree(ctx, id)
	if err != nil || !ok {
		return nil, err
	}
	v := &WorktreeView{Worktree: t}
	if v.ComparisonID, _, err = h.store.ComparisonOf(ctx, id); err != nil {
		return nil, err
	}
	if m := h.manager(); m != nil && !t.Discarded {
		if v.Status, err = m.Status(ctx, treeOf(t)); err != nil {
			v.StatusError = err.Error()
		}
	}
	return v, nil
}
