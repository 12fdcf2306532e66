package acp

import (
	"fmt"
	"sync/atomic"
)

// The session's state machine. Session.state is what the UI shows (the "state" event); a few
// flags beside it say what the state alone cannot. All of it is guarded by Session.mu, and each
// change is announced (setStateLocked, pushEvent) in the same hold of mu as the change itself,
// so the events fold to the state and a snapshot sees both or neither.
//
//	starting ──openSession──▶ idle ──PromptWith──▶ running ──Stop──▶ cancelling
//	   │                      ▲ │                     │                   │
//	   │ fail                 │ │ watch: the agent    │ endTurn           │ endTurn
//	   ▼                      │ ▼ is gone             ▼                   ▼
//	 failed                   └─ exited ◀──────── idle, or exited when the agent is gone
//	                             │
//	                             └──Continue──▶ starting
//
// A seeded session (Config.Seed) starts in starting too, with the saved transcript, and opens
// with Reopen rather than Start; Reopen and Continue share one way to continue (openSession).
//
// starting can also become exited (the agent died during the handshake), which fail then turns
// into failed. failed is final; exited is final but for Continue.
//
// The flags, and what holds of them whenever mu is free (invariantErrLocked; the tests check it
// at every unlock):
//   - turnActive: a turn's goroutine (runTurn) is running. turnActive ⇔ state is running or
//     cancelling: PromptWith sets it with running, and endTurn, the only place a turn ends,
//     clears it with the move to idle or exited; the watch leaves a running turn to endTurn.
//     turnWG counts that goroutine, so Close can wait for the turn's turn_end.
//   - promptSent: the running turn's session/prompt has been written (or failed to be). Stop
//     sends session/cancel itself only once it is set; before, runTurn sends it right after the
//     prompt. Both decide under mu, so a stopped turn gets one session/cancel, after its prompt.
//   - ladder.cancel: the armed automatic hard stop (the stop ladder's last rung); set only
//     while cancelling: Stop arms it, endTurn and Close disarm it.
//   - hardStopped: the agent was killed while a turn was active (HardStop, or the automatic
//     hard stop); the turn ends interrupted and the session exited. Continue clears it.
//     ladder.ignoredMsg says why an automatic one happened; it is set only while cancelling and
//     with hardStopped, and endTurn clears it.
//   - closing: Close was called. It never goes back: no turn starts (ErrClosed), Continue
//     refuses, and the exit that follows is ours: its state event carries no message.
//   - perms.open: the parked permission requests. Empty whenever the state is cancelling, exited or
//     failed: Stop, endTurn, the watch and fail answer them all "cancelled", and one that
//     arrives then is answered at once. Every request is answered exactly once. elicits.open
//     (open elicitation/create requests) follow the same rule, answered "cancel".
//   - agentSessionID: "" until session/new has answered. session/update params that arrive
//     meanwhile wait in early, in order (at most MaxEarlyUpdates / MaxEarlyBytes; the rest are
//     dropped and counted in earlyDropped), and are applied when it answers; so early is empty
//     whenever agentSessionID is set.
//   - replaying: session/resume or session/load is under way, so what the agent replays is
//     history we already show; only while starting. replay (session/load's scratch transcript)
//     is set only with replaying.
//   - pendingSummary: the summary of the saved turns a new agent session is to be given with the
//     next prompt (Reopen, Continue); set only when the session was continued that way, and
//     cleared once a prompt carries it.
//   - connGen: moved on by Continue before it launches an agent, so that the watch of the old
//     connection does not report its end over the new start.
//   - conn, transport, handler, watchDone: the current agent's, replaced together by connect.
//   - queue (session_queue.go): queued items marked held stay so until the person sends them;
//     an item whose steer is on the wire (steering) is neither edited nor sent as a turn.
//   - steers (session_steer.go): the running turn's steered prompts (chained) and its ending
//     flag belong to the running turn: both are empty/false unless turnActive. Steer joins a
//     steer only while the turn runs and is not ending, and runTurn takes each (next) before
//     it ends the turn, so a steered entry never lands after the turn's end.
//   - draft (a receipt.Draft, session_receipt.go): the running turn's receipt as it is
//     gathered; set exactly while turnActive (startTurnLocked makes it, endTurn's receiptLocked
//     drops it). It is not safe for concurrent use: it is called only under mu. cost is the
//     session's last reported cost, the draft's base.
//
// Lock order: Session.mu → pump.mu; terminals and workers take their own locks without mu.
// Nothing holds mu while it waits for the agent, a person, a process or the Emitter.

// invariantErrLocked reports the first invariant above that does not hold, nil when all do. The
// caller holds s.mu and is done with its change (unlock).
func (s *Session) invariantErrLocked() error {
	inTurn := s.state == StateRunning || s.state == StateCancelling
	over := s.state == StateCancelling || s.state == StateExited || s.state == StateFailed
	switch {
	case s.turnActive != inTurn:
		return fmt.Errorf("turnActive is %v in state %s", s.turnActive, s.state)
	case s.ladder.cancel != nil && s.state != StateCancelling:
		return fmt.Errorf("an automatic hard stop is armed in state %s", s.state)
	case s.ladder.ignoredMsg != "" && (s.state != StateCancelling || !s.hardStopped):
		return fmt.Errorf("ladder.ignoredMsg is set in state %s (hardStopped %v)", s.state, s.hardStopped)
	case len(s.perms.open) > 0 && over:
		return fmt.Errorf("%d permission requests are parked in state %s", len(s.perms.open), s.state)
	case len(s.elicits.open) > 0 && over:
		return fmt.Errorf("%d elicitations are open in state %s", len(s.elicits.open), s.state)
	case len(s.early) > 0 && s.agentSessionID != "":
		return fmt.Errorf("%d early updates wait although session %s is known", len(s.early), s.agentSessionID)
	case s.replaying && s.state != StateStarting:
		return fmt.Errorf("replaying in state %s", s.state)
	case s.replay != nil && !s.replaying:
		return fmt.Errorf("a replay is kept while not replaying")
	case (s.draft != nil) != s.turnActive:
		return fmt.Errorf("a receipt draft is %v while turnActive is %v", s.draft != nil, s.turnActive)
	case (len(s.steers.chained) > 0 || s.steers.ending) && !s.turnActive:
		return fmt.Errorf("%d steered prompts (ending %v) belong to no turn", len(s.steers.chained), s.steers.ending)
	}
	return nil
}

// checkInvariants makes every session created from now on check its invariants each time it
// releases its lock (unlock); the tests turn it on (export_test.go).
var checkInvariants atomic.Bool

// invariantBreaks counts the checks that found an invariant broken, in this process;
// firstBreak says what the first one found.
var (
	invariantBreaks atomic.Uint64
	firstBreak      atomic.Pointer[string]
)

// unlock releases s.mu; in the tests it first checks that every invariant holds, and counts and
// logs one that does not.
func (s *Session) unlock() {
	if s.checking {
		if err := s.invariantErrLocked(); err != nil {
			msg := fmt.Sprintf("session %s: invariant broken: %v", s.cfg.ID, err)
			invariantBreaks.Add(1)
			firstBreak.CompareAndSwap(nil, &msg)
			s.cfg.Logf("%s", msg)
		}
	}
	s.mu.Unlock()
}

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

// setStateLocked moves the session to st and announces it; msg says why (the UI shows it).
func (s *Session) setStateLocked(st State, msg string) {
	s.state, s.stateMsg = st, msg
	s.pushEvent(Event{Kind: EventState, State: st, Message: msg})
	if st == StateExited || st == StateFailed {
		s.holdQueueLocked() // what waited for the agent was not sent (session_queue.go)
	}
}
