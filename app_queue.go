package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"agentdesk/backend/acp"
)

// The queue verbs of Sessions: what the person sends while a turn runs waits in the session's
// queue (Prompt and PromptWith queue it by themselves during a turn) and is sent when the turn
// ends. These change a queued prompt, send it at once, or steer it into the running turn. The
// queue itself reaches the page as queue events and in the snapshot.

// steerTimeout bounds the wait for the agent's answer to a steer.
const steerTimeout = 30 * time.Second

// EditQueued replaces the text of queued prompt itemID of sessionID (its attachments stay).
func (ss *Sessions) EditQueued(sessionID, itemID, text string) error {
	return ss.onLive(sessionID, func(s *acp.Session) error { return s.EditQueued(itemID, text) })
}

// RemoveQueued takes queued prompt itemID out of sessionID's queue without sending it.
func (ss *Sessions) RemoveQueued(sessionID, itemID string) error {
	return ss.onLive(sessionID, func(s *acp.Session) error { return s.RemoveQueued(itemID) })
}

// SendQueuedNow sends queued prompt itemID next: at once when no turn runs, else it stops the
// running turn and sends it when that turn has ended. It returns once the stop is sent.
func (ss *Sessions) SendQueuedNow(sessionID, itemID string) error {
	return ss.onLive(sessionID, func(s *acp.Session) error { return s.SendQueuedNow(itemID) })
}

// Steer delivers queued prompt itemID into sessionID's running turn, where the agent offers it
// (the session's controls say canSteer). It waits for the agent's answer (at most 30 s). When
// the turn ended first, it returns no error: the prompt stays queued and is sent as the next
// turn. On any error the prompt stays queued.
func (ss *Sessions) Steer(sessionID, itemID string) error {
	return ss.onLive(sessionID, func(s *acp.Session) error {
		ctx, cancel := context.WithTimeout(ss.ctx, steerTimeout)
		defer cancel()
		_, err := s.Steer(ctx, itemID)
		return err
	})
}

// queueWords is the window's text for the queue's and steering's errors, or "".
func queueWords(err error) string {
	var refused *acp.SteerRefusedError
	switch {
	case errors.Is(err, acp.ErrNotQueued):
		return "that prompt is no longer queued: it was sent or removed meanwhile"
	case errors.Is(err, acp.ErrCannotSteer):
		return "this agent cannot take a message into its running turn; the prompt stays queued and is sent when the turn ends"
	case errors.Is(err, acp.ErrNoTurn):
		return "no turn is running to steer; the prompt stays queued"
	case errors.Is(err, acp.ErrSteering):
		return "the prompt is being delivered to the running turn; wait a moment"
	case errors.Is(err, acp.ErrQueueFull):
		return fmt.Sprintf("%s: wait for the agent to work through them, or remove some", err)
	case errors.Is(err, acp.ErrEmptyPrompt):
		return "a queued prompt cannot be empty: remove it instead"
	case errors.As(err, &refused):
		return refused.Error() + "; it stays queued and is sent when the turn ends"
	}
	return ""
}
