package hub

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/google/uuid"

	"agentdesk/backend/acp"
	"agentdesk/backend/store"
)

// AgentSessionItem is one session the agent keeps (session/list), with SavedID, the id of our
// saved copy when the history has one ("" when not).
type AgentSessionItem struct {
	acp.AgentSessionInfo
	SavedID string `json:"savedId,omitempty"`
}

// AgentSessionPage is one page of an agent's sessions; NextCursor is opaque, "" on the last.
type AgentSessionPage struct {
	Sessions   []AgentSessionItem `json:"sessions"`
	NextCursor string             `json:"nextCursor,omitempty"`
}

// maxAgentSessionsPage bounds what one page shows: an agent may answer with any number.
const maxAgentSessionsPage = 500

// ListAgentSessions asks the agent of live session liveID for one page of the sessions it keeps
// in that session's folder (acp.Session.ListAgentSessions), marking those the history already
// holds. It fails when the session is not live, the agent does not offer session/list, or the
// agent's answer is an error.
func (h *Hub) ListAgentSessions(ctx context.Context, liveID, cursor string) (AgentSessionPage, error) {
	s, err := h.Session(liveID)
	if err != nil {
		return AgentSessionPage{}, err
	}
	agentID := ""
	h.mu.Lock()
	if st := h.starts[liveID]; st != nil { // nil once the session has left the hub
		agentID = st.agentID
	}
	h.mu.Unlock()
	page, err := s.ListAgentSessions(ctx, cursor)
	if err != nil {
		return AgentSessionPage{}, err
	}
	out := AgentSessionPage{NextCursor: page.NextCursor, Sessions: make([]AgentSessionItem, 0, min(len(page.Sessions), maxAgentSessionsPage))}
	ids := make([]string, 0, len(out.Sessions))
	for _, info := range page.Sessions[:min(len(page.Sessions), maxAgentSessionsPage)] {
		if strings.TrimSpace(info.SessionID) == "" {
			continue // nothing to open it by
		}
		out.Sessions = append(out.Sessions, AgentSessionItem{AgentSessionInfo: info})
		ids = append(ids, info.SessionID)
	}
	if h.store == nil {
		return out, nil
	}
	if err := h.store.Writer().Flush(ctx); err != nil { // a session opened a moment ago is saved
		h.logf("list agent sessions: %v", err)
	}
	saved, err := h.store.SavedAgentSessions(ctx, agentID, ids)
	if err != nil {
		h.logf("list agent sessions: %v", err) // the list is still worth showing
		return out, nil
	}
	for i := range out.Sessions {
		out.Sessions[i].SavedID = saved[out.Sessions[i].SessionID]
	}
	return out, nil
}

// OpenAgentSessionRequest names one of an agent's own sessions (from ListAgentSessions).
type OpenAgentSessionRequest struct {
	AgentID        string
	AgentSessionID string
	Cwd            string // the folder the agent listed it with
	Title          string
}

// OpenAgentSession makes one of the agent's own sessions live here: a new session in the
// history, seeded with nothing but the agent's session id, whose agent loads it (its replay
// becomes the transcript) or resumes it (acp.Session.Reopen); saved like any other from then
// on. A session the history already holds is continued instead (ContinueSaved), so there is
// never a second copy; one that is live fails with ErrAlreadyLive (switch to it). It fails
// like Start for an unknown agent or a missing folder.
func (h *Hub) OpenAgentSession(ctx context.Context, req OpenAgentSessionRequest, out acp.Emitter) (*acp.Session, SessionInfo, error) {
	if strings.TrimSpace(req.AgentSessionID) == "" {
		return nil, SessionInfo{}, errors.New("open agent session: no session id")
	}
	if h.store != nil {
		if err := h.store.Writer().Flush(ctx); err != nil { // one opened a moment ago is found
			return nil, SessionInfo{}, fmt.Errorf("open agent session %s: %w", req.AgentSessionID, err)
		}
		saved, err := h.store.SavedAgentSessions(ctx, req.AgentID, []string{req.AgentSessionID})
		if err != nil {
			return nil, SessionInfo{}, fmt.Errorf("open agent session %s: %w", req.AgentSessionID, err)
		}
		if id := saved[req.AgentSessionID]; id != "" {
			return h.ContinueSaved(ctx, ContinueRequest{SessionID: id}, out)
		}
	}
	agent, err := h.findAgent(req.AgentID)
	if err != nil {
		return nil, SessionInfo{}, err
	}
	dir, err := checkFolder(req.Cwd)
	if err != nil {
		return nil, SessionInfo{}, err
	}
	mcp, err := h.mcpFor(agent.ID, nil)
	if err != nil {
		return nil, SessionInfo{}, err
	}
	title := strings.TrimSpace(req.Title)
	if title == "" {
		title = agent.Name + " session"
	}
	id := uuid.NewString()
	var rec *recorder
	if h.store != nil {
		rec = newRecorder(h.store.Writer(), id, agent, h.now, h.logf)
		rec.titled.Store(true) // the agent's own name for it, as the person found it in the list
		now := h.now()
		h.store.Writer().CreateSession(store.Session{ID: id, AgentID: agent.ID, AgentCmd: agent.Line, AgentName: agent.Name,
			AgentSessionID: req.AgentSessionID, Cwd: dir, Title: title, Outcome: store.OutcomeReady,
			CreatedAt: now, UpdatedAt: now})
	}
	seed := &acp.Seed{AgentSessionID: req.AgentSessionID, Title: title}
	s, info := h.launch(launch{id: id, agent: agent, dir: dir, rec: rec, seed: seed, mcp: mcp,
		req: StartRequest{AgentID: agent.ID, Cwd: dir}}, out)
	return s, info, nil
}
