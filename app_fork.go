package main

import (
	"context"
	"errors"
	"fmt"
	"log"

	"agentdesk/backend/acp"
	"agentdesk/backend/hub"
	"agentdesk/backend/store"
)

// ForkSession starts a new session branched from session sessionID (saved or live, left as it
// is) at its turn turn: the new one holds the transcript up to and with that turn, and its
// agent is given it (session/fork where the agent offers it and turn is the last one, else a
// summary). It returns at once with the new live session; events follow as for StartSession.
func (ss *Sessions) ForkSession(sessionID string, turn int) (SessionInfo, error) {
	return ss.branch(hub.ForkRequest{SessionID: sessionID, Link: acp.LinkFork, Turn: turn})
}

// RerunEdited starts a new session branched from session sessionID before its turn turn, and
// sends text (the edited message of that turn) as its first prompt once the agent is ready.
// The original session is untouched. It returns at once with the new live session.
func (ss *Sessions) RerunEdited(sessionID string, turn int, text string) (SessionInfo, error) {
	return ss.branch(hub.ForkRequest{SessionID: sessionID, Link: acp.LinkRerun, Turn: turn, Text: text})
}

// ContinueInAgent starts a session of agent agentID in the folder of session sessionID (saved
// or live), given the whole transcript, linked to it in the history. It returns at once with
// the new live session.
func (ss *Sessions) ContinueInAgent(sessionID, agentID string) (SessionInfo, error) {
	return ss.branch(hub.ForkRequest{SessionID: sessionID, Link: acp.LinkContinueAgent, AgentID: agentID})
}

// branch runs req, with the errors worded for the window.
func (ss *Sessions) branch(req hub.ForkRequest) (SessionInfo, error) {
	ctx, cancel := context.WithTimeout(ss.ctx, closeTimeout) // reading the parent
	defer cancel()
	if ss.store == nil {
		return SessionInfo{}, ss.dbErr
	}
	_, info, err := ss.hub.Fork(ctx, req, ss.pageEmitter())
	switch {
	case errors.Is(err, store.ErrNotFound):
		return SessionInfo{}, errors.New("this session is not in the history (it may have been deleted)")
	case errors.Is(err, hub.ErrBadFork):
		return SessionInfo{}, fmt.Errorf("could not branch the session: %w", err)
	}
	return SessionInfo(info), forWindow(err)
}

// withLinks adds to history items their links: the parent a session came from (kept when the
// parent was deleted, marked so) and how many sessions came from each. A failure to read them
// leaves the items as they are: the list matters more than its markers.
func (h *History) withLinks(items []HistoryItem) []HistoryItem {
	ids := make([]string, len(items))
	for i := range items {
		ids[i] = items[i].ID
	}
	links, err := h.store.SessionLinks(h.ctx, ids)
	if err != nil {
		log.Printf("agentdesk history: %v", err)
		return items
	}
	m := h.catalog.Masker()
	for i := range items {
		l, ok := links[items[i].ID]
		if !ok {
			continue
		}
		items[i].Forks = len(l.Children)
		if p := l.Parent; p != nil {
			items[i].ParentID, items[i].ParentTitle, items[i].ParentAgent = p.Parent, m.Mask(p.ParentTitle), p.ParentAgent
			items[i].ParentTurn, items[i].LinkKind, items[i].ParentDeleted = p.ParentTurn, p.Kind, l.ParentDeleted
		}
	}
	return items
}
