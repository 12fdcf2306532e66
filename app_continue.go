package main

import (
	"context"
	"errors"

	"agentdesk/backend/hub"
)

// ContinueSaved makes a saved session live again under its id, with its agent in its folder:
// the agent resumes it, loads it, or starts anew and is given a summary of the saved turns (a
// boundary entry in the transcript says which). It returns at once; events follow as for
// StartSession, under the same id. A session already live fails worded for the window.
func (ss *Sessions) ContinueSaved(sessionID string) (SessionInfo, error) {
	ctx, cancel := context.WithTimeout(ss.ctx, closeTimeout) // reading the saved session
	defer cancel()
	if ss.store == nil {
		return SessionInfo{}, ss.dbErr
	}
	_, info, err := ss.hub.ContinueSaved(ctx, hub.ContinueRequest{SessionID: sessionID}, ss.pageEmitter())
	if errors.Is(err, hub.ErrAlreadyLive) {
		return SessionInfo{}, errors.New("this session is already live: switch to it in the sidebar")
	}
	return SessionInfo(info), forWindow(err)
}
