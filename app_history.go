package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"agentdesk/backend/acp"
	"agentdesk/backend/export"
	"agentdesk/backend/hub"
	"agentdesk/backend/store"
)

// History is the bound service of the saved sessions: list and search them, open one whole or
// part by part, export it (as text, or to a file through the save dialog: app_export.go),
// rename or delete it, and say whether the history is being saved (app_status.go). The verbs
// that read it first let live sessions' queued changes land, so what they read is complete,
// and mask every secret value agentdesk knows. Without a usable database the verbs that read
// or change it fail with the reason HistoryNotice gives, and HistoryStatus says it is not saved.
type History struct {
	*core
	saveDialog saveDialogFunc // runtime.SaveFileDialog (app_export.go); nil: no window to show it in
}

// HistoryNotice is what the user must be told about the history at start-up, or "": that it is
// unavailable (and sessions are not saved) and why, or that a damaged file was set aside.
func (h *History) HistoryNotice() string {
	if h.dbErr != nil {
		return h.dbErr.Error()
	}
	return h.notice
}

// HistoryItem is a saved session in the history list.
type HistoryItem struct {
	ID        string `json:"id"`
	Title     string `json:"title"`
	AgentID   string `json:"agentId,omitempty"` // "" when unknown
	AgentName string `json:"agentName"`
	Cwd       string `json:"cwd"` // the project: for a session in a worktree, the folder it was started for
	CreatedAt string `json:"createdAt"`
	UpdatedAt string `json:"updatedAt"`
	Outcome   string `json:"outcome"`
	Turns     int    `json:"turns"`
	Snippet   string `json:"snippet,omitempty"`
	// Links (app_fork.go): the session it came from, if any (ParentDeleted: since deleted;
	// ParentTitle and ParentAgent are as they were then), how (LinkKind: fork | rerun |
	// continue-agent) and at which of its turns; Forks: how many sessions came from this one.
	ParentID      string `json:"parentId,omitempty"`
	ParentTitle   string `json:"parentTitle,omitempty"`
	ParentAgent   string `json:"parentAgent,omitempty"`
	ParentTurn    int    `json:"parentTurn,omitempty"`
	ParentDeleted bool   `json:"parentDeleted,omitempty"`
	LinkKind      string `json:"linkKind,omitempty"`
	Forks         int    `json:"forks,omitempty"`
	// SubagentOf is, for a subagent session (a child an agent started inside another session),
	// the id of that session: the sidebar nests it there.
	SubagentOf string `json:"subagentOf,omitempty"`
}

// historyListLimit bounds ListHistory: the page says when a list is cut there (its LIST_LIMIT).
const historyListLimit = 200

// ListHistory lists saved sessions, newest first, or those matching query (full-text, best
// first); at most historyListLimit of them.
func (h *History) ListHistory(query string) ([]HistoryItem, error) {
	if h.store == nil {
		return nil, h.dbErr
	}
	h.flushHistory()
	rows, err := h.store.ListSessions(h.ctx, query, historyListLimit)
	if err != nil {
		return nil, fmt.Errorf("could not read the history: %w", err)
	}
	out := make([]HistoryItem, 0, len(rows))
	for _, r := range rows {
		out = append(out, HistoryItem{ID: r.ID, Title: h.catalog.Masker().Mask(r.Title), AgentID: r.AgentID, AgentName: r.AgentName, Cwd: r.Project,
			CreatedAt: r.CreatedAt.Format(time.RFC3339), UpdatedAt: r.UpdatedAt.Format(time.RFC3339),
			Outcome: r.Outcome, Turns: r.Turns, Snippet: hub.MaskSnippet(h.catalog.Masker(), r.Snippet), SubagentOf: r.ParentID})
	}
	return h.withLinks(out), nil
}

// OpenHistory returns a saved session in the shape of a live snapshot.
func (h *History) OpenHistory(id string) (acp.Snapshot, error) {
	if h.store == nil {
		return acp.Snapshot{}, h.dbErr
	}
	h.flushHistory()
	s, turns, entries, err := h.store.Session(h.ctx, id)
	if err != nil {
		return acp.Snapshot{}, openError(id, err)
	}
	perms, err := h.store.Permissions(h.ctx, id)
	if err != nil {
		return acp.Snapshot{}, openError(id, err)
	}
	snap := hub.SnapshotFromStore(s, turns, entries)
	snap.Decisions = hub.Decisions(perms)
	return hub.MaskSnapshot(h.catalog.Masker(), snap), nil
}

// HistoryPart is a run of a saved session's entries (OpenHistoryPart): a snapshot holding only
// those entries and the turns they belong to, where they start among the session's entries,
// and how many entries the session has.
type HistoryPart struct {
	Snapshot acp.Snapshot `json:"snapshot"`
	From     int          `json:"from"`
	Total    int          `json:"total"`
}

// OpenHistoryPart is OpenHistory for `limit` entries from position `from`, or for the last
// `limit` when from is negative. The page opens a saved session with its end, so that even a
// very long one shows at once, then reads the earlier parts one by one, so that no step holds
// the page long. Errors are OpenHistory's.
func (h *History) OpenHistoryPart(id string, from, limit int) (HistoryPart, error) {
	if h.store == nil {
		return HistoryPart{}, h.dbErr
	}
	h.flushHistory()
	p, err := h.store.SessionPart(h.ctx, id, from, limit)
	if err != nil {
		return HistoryPart{}, openError(id, err)
	}
	perms, err := h.store.Permissions(h.ctx, id)
	if err != nil {
		return HistoryPart{}, openError(id, err)
	}
	snap := hub.SnapshotFromStore(p.Session, p.Turns, p.Entries)
	snap.Decisions = hub.Decisions(perms) // all of them: a part's cards find theirs
	return HistoryPart{Snapshot: hub.MaskSnapshot(h.catalog.Masker(), snap), From: p.From, Total: p.Total}, nil
}

// openError is the user's message for a saved session that could not be read.
func openError(id string, err error) error {
	if errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("session %s is not in the history (it may have been deleted)", id)
	}
	return fmt.Errorf("could not open session %s: %w", id, err)
}

// ExportHistory renders a saved session as Markdown ("md") or JSON ("json").
func (h *History) ExportHistory(id, format string) (string, error) {
	if h.store == nil {
		return "", h.dbErr
	}
	h.flushHistory()
	s, turns, entries, err := h.store.Session(h.ctx, id)
	if err != nil {
		return "", fmt.Errorf("could not export session %s: %w", id, err)
	}
	perms, err := h.store.Permissions(h.ctx, id)
	if err != nil {
		return "", fmt.Errorf("could not export session %s: %w", id, err)
	}
	return export.Render(h.catalog.Masker(), s, turns, entries, perms, format)
}

// DeleteHistory deletes a saved session with its transcript and journal, and its worktree and
// branch when it ran in one (the page has said so when it asked). A live session keeps running;
// only its history goes (a live session in a worktree keeps it: its agent works there).
func (h *History) DeleteHistory(id string) error {
	if h.store == nil {
		return h.dbErr
	}
	if _, err := h.hub.Session(id); err != nil { // not live: its worktree goes with it
		ctx, cancel := context.WithTimeout(h.ctx, worktreeTimeout)
		err := h.hub.DiscardWorktree(ctx, id)
		cancel()
		if err != nil && !errors.Is(err, hub.ErrNoWorktree) && !errors.Is(err, hub.ErrNoWorktrees) {
			return fmt.Errorf("could not delete session %s: remove its worktree: %w", id, worktreeErr(err))
		}
	}
	h.hub.Detach(id) // a live session keeps running, unsaved: its rows are gone
	if err := h.store.DeleteSession(h.ctx, id); err != nil {
		return fmt.Errorf("could not delete session %s: %w", id, err)
	}
	h.hub.CollectLedger(h.ctx) // its snapshots go too, where no other session shares them
	return nil
}

// RenameHistory gives a saved (or live) session the user's title; the agent's titles no longer
// replace it. A live session's agent that takes titles (session/set_title) is told it first, and
// the title it stored is kept; it may wait for that agent up to 10 s.
func (h *History) RenameHistory(id, title string) error {
	if h.store == nil {
		return h.dbErr
	}
	title = strings.TrimSpace(title)
	if title == "" {
		return errors.New("a session needs a title: type one, or press Esc to keep the old one")
	}
	h.hub.Renamed(id)
	title = h.hub.PushTitle(h.ctx, id, title)
	if err := h.store.RenameSession(h.ctx, id, h.catalog.Masker().Mask(title)); err != nil { // saved masked, as all text
		return fmt.Errorf("could not rename session %s: %w", id, err)
	}
	return nil
}
