package main

import (
	"context"
	"errors"

	"agentdesk/backend/hub"
	"agentdesk/backend/store"
)

// The comparison verbs: one task to several agents at once, each in a worktree of its own
// (Sessions.StartComparison), and the comparison side by side (History.Comparison), live or
// saved.

// StartComparison gives prompt to each of agentIDs (2 to 8; one agent may be given twice) in a
// new worktree of cwd's repository, and runs check with sh in each worktree after each turn
// ("" for none). It returns once every session is starting; their events follow as for
// StartSession (each is sent the prompt once ready).
func (ss *Sessions) StartComparison(cwd string, agentIDs []string, prompt, check string) (hub.ComparisonInfo, error) {
	info, err := ss.hub.StartComparison(hub.CompareRequest{Cwd: cwd, Agents: agentIDs, Prompt: prompt, Check: check}, ss.pageEmitter())
	return info, forWindow(err)
}

// Comparison is comparison id with one row per session: files changed, + / −, the latest
// check, time, waiting, tokens, cost and commands (computed in Go; the page shows them).
func (h *History) Comparison(id string) (hub.ComparisonView, error) {
	ctx, cancel := context.WithTimeout(h.ctx, worktreeTimeout)
	defer cancel()
	v, err := h.hub.Comparison(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return v, errors.New("this comparison is not in the history (its sessions may have been deleted)")
	}
	return v, forWindow(err)
}
