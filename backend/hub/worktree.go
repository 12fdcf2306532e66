package hub

import (
	"context"
	"errors"
	"fmt"
	"time"

	"agentdesk/backend/store"
	"agentdesk/backend/worktree"
)

// ErrNoWorktrees is a start in a worktree (StartRequest.Worktree) by a hub that has nowhere to
// keep worktrees: no writable history, whose folder holds them.
var ErrNoWorktrees = errors.New("sessions in a worktree need the history's folder, and there is none writable here")

// worktreeTimeout bounds making a worktree: git checks out every file of the project.
const worktreeTimeout = 5 * time.Minute

// SetWorktrees sets the Manager that gives a session started with StartRequest.Worktree its
// git worktree; nil (the default) refuses such starts with ErrNoWorktrees.
func (h *Hub) SetWorktrees(m *worktree.Manager) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.worktrees = m
}

// makeWorktree gives session id a worktree of the repository holding dir, on branch
// agentdesk/s-<the id's first 8 characters>, with the person's uncommitted work when carry. It
// blocks while git checks the files out. A worktree that could not be given the work is removed.
func (h *Hub) makeWorktree(dir, id string, carry bool) (worktree.Tree, error) {
	m := h.manager()
	if m == nil {
		return worktree.Tree{}, ErrNoWorktrees
	}
	ctx, cancel := context.WithTimeout(context.Background(), worktreeTimeout)
	defer cancel()
	t, err := m.Create(ctx, dir, "s-"+id[:8])
	if err != nil {
		return worktree.Tree{}, fmt.Errorf("start in a worktree: %w", err)
	}
	if carry {
		if _, err := m.Carry(ctx, t); err != nil {
			if derr := m.Discard(ctx, t); derr != nil {
				h.logf("remove the worktree %s: %v", t.Path, derr)
			}
			return worktree.Tree{}, fmt.Errorf("start in a worktree: %w", err)
		}
	}
	return t, nil
}

// storedWorktree is t, made for the person's folder project, as the history keeps it.
func storedWorktree(t worktree.Tree, project string) *store.Worktree {
	return &store.Worktree{Repo: t.Repo, Path: t.Path, Branch: t.Branch, Base: t.Base, Project: project}
}

// WorktreeChoice is what the start form shows beside a folder: whether a session there can
// have a worktree and whether it had one last time.
type WorktreeChoice struct {
	// Possible: the folder is in a git repository with a commit; else Why says why not.
	Possible bool   `json:"possible"`
	Why      string `json:"why,omitempty"`
	// Chosen: the latest session started for this folder ran in a worktree (the switch's
	// remembered position).
	Chosen bool `json:"chosen"`
	// Uncommitted counts the folder's repository's files that differ from its HEAD: what
	// StartRequest.Carry would bring along (the form asks when there are some).
	Uncommitted int `json:"uncommitted"`
}

// ChooseWorktree says whether a session in dir can run in a worktree and whether the switch
// is on for it. It blocks while git looks at dir (a few ms).
func (h *Hub) ChooseWorktree(ctx context.Context, dir string) WorktreeChoice {
	m := h.manager()
	if m == nil || h.store == nil {
		return WorktreeChoice{Why: ErrNoWorktrees.Error()}
	}
	n, err := m.Uncommitted(ctx, dir) // fails as Possible does: no repository, no commit
	if err != nil {
		return WorktreeChoice{Why: err.Error()}
	}
	h.flush(ctx)
	chosen, err := h.store.WorktreeChosen(ctx, dir)
	if err != nil {
		h.logf("%v", err)
	}
	return WorktreeChoice{Possible: true, Chosen: chosen, Uncommitted: n}
}
