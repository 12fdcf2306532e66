package acp

import (
	"fmt"
	"time"
)

// DefaultHardStopAfter is how long after Stop a session waits for the agent to end the turn
// before it stops the agent hard by itself (acp-client.md §5, "Escalation"). It is longer than
// the grace period after which the UI offers Hard stop (10 s), because some agents take about
// 20 s to honour a cancel.
const DefaultHardStopAfter = 30 * time.Second

// AfterFunc is the stop ladder's timer, with the contract of time.AfterFunc: f runs once, on a
// goroutine of its own, d from now, unless cancel is called first; cancel reports whether it
// prevented the call. Tests pass a fake that fires when told to.
type AfterFunc func(d time.Duration, f func()) (cancel func() bool)

func realAfterFunc(d time.Duration, f func()) func() bool { return time.AfterFunc(d, f).Stop }

// armHardStopLocked starts the last rung of the stop ladder for the current turn: unless the
// turn ends first, the agent is stopped hard HardStopAfter from now. The caller holds s.mu and
// has just moved the session to cancelling.
func (s *Session) armHardStopLocked() {
	s.disarmHardStopLocked()
	if s.cfg.HardStopAfter < 0 {
		return
	}
	turn := s.tr.Turn()
	s.hardStopCancel = s.cfg.AfterFunc(s.cfg.HardStopAfter, func() { s.stopIgnored(turn) })
}

// disarmHardStopLocked cancels a pending automatic hard stop; the caller holds s.mu. A timer
// that fired already finds the turn over and does nothing (see stopIgnored).
func (s *Session) disarmHardStopLocked() {
	if s.hardStopCancel != nil {
		s.hardStopCancel()
		s.hardStopCancel = nil
	}
}

// stopIgnored is the automatic hard stop: turn is still cancelling HardStopAfter after Stop.
// Like HardStop it kills the agent's process group; the turn then ends interrupted and the
// session exited, both with a message that says why, and Continue restarts the agent.
func (s *Session) stopIgnored(turn int) {
	s.mu.Lock()
	if s.state != StateCancelling || !s.turnActive || s.tr.Turn() != turn || s.closing || s.transport == nil {
		s.mu.Unlock()
		return // the turn ended (or the session closed) while the timer fired
	}
	s.hardStopped = true
	s.stopIgnoredMsg = fmt.Sprintf("the agent ignored Stop for %s and was stopped hard (its processes were killed)",
		spokenDuration(s.cfg.HardStopAfter))
	tr, msg := s.transport, s.stopIgnoredMsg
	s.mu.Unlock()
	s.cfg.Logf("session %s: %s", s.cfg.ID, msg)
	_ = tr.Close(s.cfg.CloseGrace)
}

// spokenDuration writes whole seconds as "30 s" and anything else as Go does ("1.5s", "50ms").
func spokenDuration(d time.Duration) string {
	if d >= time.Second && d%time.Second == 0 {
		return fmt.Sprintf("%d s", d/time.Second)
	}
	return d.String()
}
