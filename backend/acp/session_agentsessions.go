package acp

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Methods about the agent's own saved sessions.
const (
	MethodSessionList   = "session/list"
	MethodSessionClose  = "session/close"
	MethodSessionDelete = "session/delete"
	// MethodSessionArchive hides a session from the agent's default session/list, keeping its
	// id and history (sessionCapabilities.archive; schema 1.35).
	MethodSessionArchive = "session/archive"
	MethodLogout         = "logout"
)

// AgentSessionInfo is one session the agent keeps (session/list).
type AgentSessionInfo struct {
	SessionID string `json:"sessionId"`
	Cwd       string `json:"cwd"`
	Title     string `json:"title,omitempty"`
	UpdatedAt string `json:"updatedAt,omitempty"`
}

// AgentSessionPage is one page of session/list; NextCursor is opaque and "" on the last page.
type AgentSessionPage struct {
	Sessions   []AgentSessionInfo `json:"sessions"`
	NextCursor string             `json:"nextCursor,omitempty"`
}

// ListAgentSessions asks the agent for the sessions it keeps in this session's folder, one page
// at a time (pass back NextCursor, never parse it). It fails when the agent does not offer
// session/list.
func (s *Session) ListAgentSessions(ctx context.Context, cursor string) (AgentSessionPage, error) {
	s.mu.Lock()
	conn, caps := s.conn, s.caps
	s.unlock()
	if conn == nil || !caps.sessionCap("list") {
		return AgentSessionPage{}, &NotOfferedError{Agent: s.cfg.AgentName, What: "session list"}
	}
	params := map[string]any{"cwd": s.cfg.Cwd}
	if cursor != "" {
		params["cursor"] = cursor
	}
	var page AgentSessionPage
	if err := conn.Call(ctx, MethodSessionList, params, &page); err != nil {
		return AgentSessionPage{}, fmt.Errorf("%s session/list: %w", s.cfg.AgentName, s.explain(err))
	}
	return page, nil
}

// ErrOwnAgentSession: DeleteAgentSession or ArchiveAgentSession of the agent session this
// session is in.
var ErrOwnAgentSession = errors.New("it is the agent session this session is in")

// DeleteAgentSession asks the agent to delete one of the sessions it keeps (session/delete).
// Only the agent's copy goes: agentdesk's history is not touched. It fails when the agent does
// not offer it, when id is the agent session this session is in (ErrOwnAgentSession), or with
// the agent's error.
func (s *Session) DeleteAgentSession(ctx context.Context, id string) error {
	return s.onAgentSession(ctx, "delete", MethodSessionDelete, id)
}

// ArchiveAgentSession asks the agent to archive one of the sessions it keeps (session/archive,
// where sessionCapabilities.archive is advertised): the agent lists it no more by default but
// keeps it. agentdesk's history is not touched. Archiving the agent session this session is in
// would end it (the agent closes an archived session), so that is refused (ErrOwnAgentSession);
// otherwise it fails as DeleteAgentSession does.
func (s *Session) ArchiveAgentSession(ctx context.Context, id string) error {
	return s.onAgentSession(ctx, "archive", MethodSessionArchive, id)
}

// onAgentSession calls method (session capability capName) on the agent's session id, never
// on the one this session is in.
func (s *Session) onAgentSession(ctx context.Context, capName, method, id string) error {
	s.mu.Lock()
	conn, caps, own := s.conn, s.caps, s.agentSessionID
	s.unlock()
	if conn == nil || !caps.sessionCap(capName) {
		return &NotOfferedError{Agent: s.cfg.AgentName, What: "session " + capName}
	}
	if id == own {
		return fmt.Errorf("%s %s session %s: %w", capName, s.cfg.AgentName, id, ErrOwnAgentSession)
	}
	if err := conn.Call(ctx, method, map[string]string{"sessionId": id}, nil); err != nil {
		return fmt.Errorf("%s %s: %w", s.cfg.AgentName, method, s.explain(err))
	}
	return nil
}

// Logout asks the agent to forget its login (logout; agentCapabilities.auth.logout). The
// agent's next call that needs a login fails with "authentication required", which the window
// answers with the login panel. It fails when the agent does not offer it, or with its error.
func (s *Session) Logout(ctx context.Context) error {
	s.mu.Lock()
	conn, caps := s.conn, s.caps
	s.unlock()
	if conn == nil || !objectCap(caps.Auth, "logout") {
		return &NotOfferedError{Agent: s.cfg.AgentName, What: "logout"}
	}
	if err := conn.Call(ctx, MethodLogout, struct{}{}, nil); err != nil {
		return fmt.Errorf("%s logout: %w", s.cfg.AgentName, s.explain(err))
	}
	return nil
}

// closeAgentSession sends session/close when the agent offers it, so it can free the session
// before its process is stopped; a slow or failing answer does not hold up the close.
func (s *Session) closeAgentSession() {
	s.mu.Lock()
	conn, caps, id, state := s.conn, s.caps, s.agentSessionID, s.state
	s.unlock()
	if conn == nil || id == "" || !caps.sessionCap("close") || state == StateExited || state == StateFailed {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), s.cfg.CloseGrace)
	defer cancel()
	start := time.Now()
	if err := conn.Call(ctx, MethodSessionClose, map[string]string{"sessionId": id}, nil); err != nil {
		s.cfg.Logf("%s: session/close after %s: %v", s.cfg.AgentName, time.Since(start).Round(time.Millisecond), err)
	}
}
