package acp

import (
	"fmt"
)

// idleErrLocked says why a prompt cannot start now, or nil when the session is idle.
func (s *Session) idleErrLocked() error {
	if s.closing {
		return ErrClosed
	}
	switch s.state {
	case StateIdle:
		return nil
	case StateExited, StateFailed:
		return fmt.Errorf("the session has %s: start a new session", s.state)
	}
	return ErrBusy
}

func (s *Session) setStateLocked(st State, msg string) {
	s.state, s.stateMsg = st, msg
	s.pushEvent(Event{Kind: EventState, State: st, Message: msg})
}
