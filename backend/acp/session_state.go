package acp

// idleErrLocked says why a prompt cannot start now, or nil when the session is idle.
func (s *Session) idleErrLocked() error {
	if s.closing {
		return ErrClosed
	}
	switch s.state {
	case StateIdle:
		return nil
	case StateExited, StateFailed:
		return &StateError{State: s.state, Err: ErrEnded}
	}
	return ErrBusy
}

func (s *Session) setStateLocked(st State, msg string) {
	s.state, s.stateMsg = st, msg
	s.pushEvent(Event{Kind: EventState, State: st, Message: msg})
}
