package main

import (
	"context"
	"errors"

	"agentdesk/backend/hub"
	"agentdesk/backend/worktree"
)

// The worktree verbs: the start form's switch (Sessions.ChooseWorktree) and, for a session in a
// worktree, its status, review, apply, commit and discard (History, by session id, live or
// saved). Each runs git and blocks while it does, at most worktreeTimeout.

// worktreeTimeout bounds one worktree verb: git reads (or, for apply, the page's files are
// written) in it.
const worktreeTimeout = 2 * closeTimeout

// WorktreeView is a session's worktree as the page shows it (hub.WorktreeView).
type WorktreeView hub.WorktreeView

// ChooseWorktree says whether a session in cwd can run in a git worktree (Possible, else Why)
// and whether the start form's switch is on for it (Chosen: the folder's latest session had one).
func (ss *Sessions) ChooseWorktree(cwd string) hub.WorktreeChoice {
	ctx, cancel := context.WithTimeout(ss.ctx, closeTimeout)
	defer cancel()
	return ss.hub.ChooseWorktree(ctx, cwd)
}

// Worktree is session sessionID's worktree with its status (commits ahead and behind, files
// changed), or null when it runs in none; a discarded one has no status.
func (h *History) Worktree(sessionID string) (*WorktreeView, error) {
	ctx, cancel := context.WithTimeout(h.ctx, worktreeTimeout)
	defer cancel()
	v, err := h.hub.ViewWorktree(ctx, sessionID)
	return (*WorktreeView)(v), worktreeErr(err)
}

// ReviewWorktree is everything session sessionID changed in its worktree against the commit it
// started from: files with + / − and git's diff.
func (h *History) ReviewWorktree(sessionID string) (worktree.Review, error) {
	ctx, cancel := context.WithTimeout(h.ctx, worktreeTimeout)
	defer cancel()
	r, err := h.hub.ReviewWorktree(ctx, sessionID)
	return r, worktreeErr(err)
}

// PreviewApply says what ApplyWorktree would do, file by file, conflicts included; it writes
// nothing.
func (h *History) PreviewApply(sessionID string) (worktree.ApplyResult, error) {
	return h.applyWorktree(sessionID, false)
}

// ApplyWorktree brings session sessionID's changes into the person's own files (a three-way
// merge; nothing committed): with any conflict it writes nothing and the result names them
// (Applied false). Refused while a turn of the session runs.
func (h *History) ApplyWorktree(sessionID string) (worktree.ApplyResult, error) {
	return h.applyWorktree(sessionID, true)
}

func (h *History) applyWorktree(sessionID string, write bool) (worktree.ApplyResult, error) {
	ctx, cancel := context.WithTimeout(h.ctx, worktreeTimeout)
	defer cancel()
	r, err := h.hub.ApplyWorktree(ctx, sessionID, write)
	return r, worktreeErr(err)
}

// CommitWorktree commits everything session sessionID changed on its worktree's branch with
// message and returns the commit's id; the person's branches and HEAD are not touched.
func (h *History) CommitWorktree(sessionID, message string) (string, error) {
	ctx, cancel := context.WithTimeout(h.ctx, worktreeTimeout)
	defer cancel()
	id, err := h.hub.CommitWorktree(ctx, sessionID, message)
	return id, worktreeErr(err)
}

// DiscardWorktree removes session sessionID's worktree and branch with all they hold (the page
// has asked); a live session is closed first. The session stays in the history.
func (h *History) DiscardWorktree(sessionID string) error {
	ctx, cancel := context.WithTimeout(h.ctx, worktreeTimeout)
	defer cancel()
	return worktreeErr(h.hub.DiscardWorktree(ctx, sessionID))
}

// worktreeErr words the worktree verbs' errors for the window.
func worktreeErr(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, hub.ErrTurnRunning):
		return errors.New("a turn of this session is running: stop it or wait for it to end, then try again")
	case errors.Is(err, worktree.ErrNothingToCommit):
		return errors.New("nothing to commit: the session's worktree has no change since its last commit")
	}
	return forWindow(err)
}
