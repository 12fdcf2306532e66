package main

import (
	"context"
	"errors"
	"fmt"

	"agentdesk/backend/acp"
	"agentdesk/backend/hub"
)

// agentCallTimeout bounds the window's calls about the agent's own sessions and login: the
// agent answers them while it may be busy with a turn.
const agentCallTimeout = closeTimeout

// ListAgentSessions returns one page of the sessions the agent of live session sessionID keeps
// in its folder (session/list), those the history holds marked with their saved id. Pass back
// the page's nextCursor for the next; "" starts at the first.
func (ss *Sessions) ListAgentSessions(sessionID, cursor string) (hub.AgentSessionPage, error) {
	ctx, cancel := context.WithTimeout(ss.ctx, agentCallTimeout)
	defer cancel()
	page, err := ss.hub.ListAgentSessions(ctx, sessionID, cursor)
	return page, forWindow(err)
}

// OpenAgentSession makes one of the agent's own sessions (from ListAgentSessions of live session
// sessionID) live here as a session of the history: the agent loads or resumes it. One the
// history already holds is continued instead. It returns at once; events follow as for
// StartSession.
func (ss *Sessions) OpenAgentSession(sessionID, agentSessionID, cwd, title string) (SessionInfo, error) {
	live, err := ss.liveInfo(sessionID)
	if err != nil {
		return SessionInfo{}, forWindow(err)
	}
	ctx, cancel := context.WithTimeout(ss.ctx, closeTimeout) // reading the history
	defer cancel()
	_, info, err := ss.hub.OpenAgentSession(ctx, hub.OpenAgentSessionRequest{AgentID: live.AgentID,
		AgentSessionID: agentSessionID, Cwd: cwd, Title: title}, ss.pageEmitter())
	if errors.Is(err, hub.ErrAlreadyLive) {
		return SessionInfo{}, errors.New("this session is already live: switch to it in the sidebar")
	}
	return SessionInfo(info), forWindow(err)
}

// DeleteAgentSession asks the agent of live session sessionID to delete one of its own sessions
// (session/delete). Only the agent's copy goes; the history keeps any copy of ours.
func (ss *Sessions) DeleteAgentSession(sessionID, agentSessionID string) error {
	return ss.onAgentSession(sessionID, "delete", func(ctx context.Context, s *acp.Session) error {
		return s.DeleteAgentSession(ctx, agentSessionID)
	})
}

// ArchiveAgentSession asks the agent of live session sessionID to archive one of its own
// sessions (session/archive): the agent lists it no more but keeps it. The history is not touched.
func (ss *Sessions) ArchiveAgentSession(sessionID, agentSessionID string) error {
	return ss.onAgentSession(sessionID, "archive", func(ctx context.Context, s *acp.Session) error {
		return s.ArchiveAgentSession(ctx, agentSessionID)
	})
}

// onAgentSession runs call (the agent's verb what on one of its sessions) on live session
// sessionID, bounded by agentCallTimeout, in words for the window.
func (ss *Sessions) onAgentSession(sessionID, what string, call func(context.Context, *acp.Session) error) error {
	return ss.onLive(sessionID, func(s *acp.Session) error {
		ctx, cancel := context.WithTimeout(ss.ctx, agentCallTimeout)
		defer cancel()
		err := call(ctx, s)
		if errors.Is(err, acp.ErrOwnAgentSession) {
			return fmt.Errorf("this is the agent session you are in: close it first, then %s it from another session", what)
		}
		return err
	})
}

// LogoutAgent asks the agent of live session sessionID to forget its login (logout). Its next
// call that needs one asks for a login again.
func (ss *Sessions) LogoutAgent(sessionID string) error {
	return ss.onLive(sessionID, func(s *acp.Session) error {
		ctx, cancel := context.WithTimeout(ss.ctx, agentCallTimeout)
		defer cancel()
		return s.Logout(ctx)
	})
}

// liveInfo is what the hub knows of live session id: its agent and folder.
func (ss *Sessions) liveInfo(id string) (hub.LiveInfo, error) {
	for _, l := range ss.hub.List() {
		if l.SessionID == id {
			return l, nil
		}
	}
	_, err := ss.hub.Session(id) // the hub's own error for a session that is not live
	if err == nil {
		err = errors.New("the session is not live")
	}
	return hub.LiveInfo{}, err
}
