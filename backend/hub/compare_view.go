package hub

import (
	"context"

	"agentdesk/backend/compare"
	"agentdesk/backend/store"
)

// ComparisonView is a comparison with one row per session, as the compare view and `agentdesk
// compare` show it.
type ComparisonView struct {
	store.Comparison
	Rows []compare.Row `json:"rows"`
}

// Comparison reads comparison id and sets its sessions side by side: what each changed in its
// worktree (git, now), its latest check, and what its turns did (their receipts). A session
// whose worktree cannot be read has its Error set; store.ErrNotFound for no such comparison.
// It blocks while git reads each worktree.
func (h *Hub) Comparison(ctx context.Context, id string) (ComparisonView, error) {
	if h.store == nil {
		return ComparisonView{}, ErrNoWorktrees
	}
	h.flush(ctx)
	c, err := h.store.Comparison(ctx, id)
	if err != nil {
		return ComparisonView{}, err
	}
	v := ComparisonView{Comparison: c, Rows: make([]compare.Row, 0, len(c.Members))}
	for _, sid := range c.Members {
		v.Rows = append(v.Rows, h.comparisonRow(ctx, sid))
	}
	return v, nil
}

// comparisonRow is session sid's row of its comparison.
func (h *Hub) comparisonRow(ctx context.Context, sid string) compare.Row {
	row := compare.Row{ID: sid, State: "saved", Checking: h.checking(sid)}
	sess, turns, err := h.store.SessionTurns(ctx, sid)
	if err != nil {
		row.Error = err.Error()
		return row
	}
	row.Agent, row.AgentID, row.Summary = sess.AgentName, sess.AgentID, compare.Summarize(turns)
	if s, err := h.Session(sid); err == nil {
		row.State = string(s.State())
	}
	if c, ok, err := h.store.LatestCheck(ctx, sid); err == nil && ok {
		row.Check = &c
	}
	t, ok, err := h.store.Worktree(ctx, sid)
	if err != nil || !ok {
		return row
	}
	row.Worktree, row.Branch, row.Discarded = t.Path, t.Branch, t.Discarded
	m := h.manager()
	if t.Discarded || m == nil {
		return row
	}
	r, err := m.Changes(ctx, treeOf(t)) // the counts only: the view reads it every 2 s while it moves
	if err != nil {
		row.Error = err.Error()
		return row
	}
	row.Files, row.Added, row.Removed = len(r.Files), r.Added, r.Removed
	return row
}
