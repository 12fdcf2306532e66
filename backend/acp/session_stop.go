package acp

import (
	"fmt"
	"time"

	"agentdesk/backend/acp/jsonrpc"
	"agentdesk/backend/acp/schema"
	"agentdesk/backend/supervise"
)

// Stop cancels the running turn: session/cancel, every open permission answered "cancelled",
// unfinished tool calls shown cancelled, state cancelling. The turn ends when the agent replies
// to the prompt; late updates are still shown. An agent that has not replied HardStopAfter
// later is stopped hard (see HardStop), and the turn ends interrupted. Stop on a session that
// is not running is a no-op.
func (s *Session) Stop() error {
	s.mu.Lock()
	if s.state != StateRunning {
		s.unlock()
		return nil
	}
	s.setStateLocked(StateCancelling, "")
	turn := s.tr.Turn()
	s.ladder.arm(s.cfg.AfterFunc, s.cfg.HardStopAfter, func() { s.stopIgnored(turn) })
	s.cancelObserverLocked()
	reqs := s.takePermissionsLocked()
	for _, c := range s.tr.CloseOpenTools(StatusCancelled) {
		s.pushChange(c)
	}
	conn, id, sent := s.conn, s.agentSessionID, s.promptSent
	s.unlock()
	var err error
	if sent { // else the turn's goroutine sends the cancel once the prompt is written
		err = conn.Notify(schema.MethodSessionCancel, schema.CancelParams{SessionID: id})
	}
	replyCancelled(reqs)
	if err != nil {
		return fmt.Errorf("send cancel to %s: %w", s.cfg.AgentName, err)
	}
	return nil
}

// HardStop kills the agent and every process it started (the stop ladder) when it does not
// honour a Stop; the running turn ends as interrupted and the session as exited, within seconds
// even when a process that could not be killed holds the agent's output. It returns once the
// agent is gone; the error names processes that could not be killed.
func (s *Session) HardStop() error {
	s.mu.Lock()
	if s.transport == nil {
		s.unlock()
		return ErrNotRunning
	}
	s.hardStopped = s.turnActive
	s.cancelObserverLocked()
	tr := s.transport
	s.unlock()
	return tr.Close(s.cfg.CloseGrace)
}

// Close ends the session: a running turn is stopped first (as Stop does: its open permissions
// are answered cancelled, so an agent blocked on one can end the turn), fs/* and terminal/create
// requests still waiting for a worker are answered "the session is closing", then the agent is
// stopped with the stop ladder, requests running are finished and the last events are
// delivered; the turn ends cancelled, and its turn_end is delivered before Close returns. No
// turn starts once Close is called (ErrClosed). Safe to call more than once.
func (s *Session) Close() error {
	s.mu.Lock()
	s.closing = true
	s.cancelObserverLocked()
	s.unlock()
	if err := s.Stop(); err != nil {
		s.cfg.Logf("session %s: %v", s.cfg.ID, err)
	}
	s.closeAgentSession()
	s.mu.Lock()
	s.ladder.disarm()
	tr, watchDone, h, conn := s.transport, s.watchDone, s.handler, s.conn
	s.unlock()
	if h != nil {
		h.work.close() // requests still waiting for a worker are answered while the agent listens
	}
	if conn != nil {
		// Those answers, and Stop's, are queued: they reach the agent before its input closes,
		// unless it does not read them within the grace.
		conn.Flush(s.cfg.CloseGrace)
	}
	if tr != nil {
		_ = tr.Close(s.cfg.CloseGrace)
		<-watchDone
	}
	// The watch returns early while a turn is active: the turn's own goroutine ends it once the
	// connection is gone, and its turn_end must reach the pump before the pump closes.
	s.turnWG.Wait()
	s.pump.close()
	return nil
}

// watch turns the end of one connection into state exited (a running turn's own goroutine
// reports that turn). done is closed when it has.
func (s *Session) watch(conn *jsonrpc.Conn, tr Transport, done chan struct{}, gen uint64) {
	defer close(done)
	<-conn.Done()
	lingered := !exitsWithin(tr, s.cfg.CloseGrace)
	if lingered {
		// The connection is over but the agent runs on (it closed its output, or sent a line
		// too long): it is of no use now, and must not outlive its session as an orphan.
		s.cfg.Logf("session %s: %s: %v; stopping it", s.cfg.ID, s.cfg.AgentName, conn.Err())
		_ = tr.Close(s.cfg.CloseGrace)
	}
	s.mu.Lock()
	defer s.unlock()
	if s.conn != conn || s.connGen != gen || s.turnActive || s.state == StateExited || s.state == StateFailed {
		return // a newer connection took over (or is being started), or the state already says it
	}
	s.takePermissionsLocked()          // the agent is gone: there is no one to answer
	s.replaying, s.replay = false, nil // a resume or load that was under way fails with the connection
	s.setStateLocked(StateExited, s.exitMessage(lingered))
}

// exitMessage says why the agent is gone; "" when agentdesk closed it. lingered: the agent ran
// on after its connection ended, and the watch stopped it.
func (s *Session) exitMessage(lingered bool) string {
	if s.closing {
		return ""
	}
	if s.ladder.ignoredMsg != "" {
		return s.ladder.ignoredMsg
	}
	return goneMessage(s.conn.Err(), s.transport, lingered)
}

// DefaultHardStopAfter is how long after Stop a session waits for the agent to end the turn
// before it stops the agent hard by itself (docs/acp.md, "Escalation"). It is longer than
// the grace period after which the UI offers Hard stop (10 s), because some agents take about
// 20 s to honour a cancel.
const DefaultHardStopAfter = 30 * time.Second

// AfterFunc is the stop ladder's timer, with the contract of time.AfterFunc: f runs once, on a
// goroutine of its own, d from now, unless cancel is called first; cancel reports whether it
// prevented the call. Tests pass a fake that fires when told to.
type AfterFunc func(d time.Duration, f func()) (cancel func() bool)

func realAfterFunc(d time.Duration, f func()) func() bool { return time.AfterFunc(d, f).Stop }

// stopLadder is the last rung of the stop ladder: the automatic hard stop of a turn that stays
// cancelling, and why one happened. Guarded by Session.mu. At most one timer is armed; a timer
// that fired after disarm finds the turn over and does nothing (see stopIgnored).
type stopLadder struct {
	cancel     func() bool // the armed automatic hard stop; nil when none
	ignoredMsg string      // why the automatic hard stop happened, until the turn has ended
}

// arm starts the automatic hard stop: unless disarmed first, fire runs after wait (on the
// AfterFunc's goroutine). A negative wait arms nothing.
func (l *stopLadder) arm(after AfterFunc, wait time.Duration, fire func()) {
	l.disarm()
	if wait >= 0 {
		l.cancel = after(wait, fire)
	}
}

// disarm cancels the armed automatic hard stop, if any.
func (l *stopLadder) disarm() {
	if l.cancel != nil {
		l.cancel()
		l.cancel = nil
	}
}

// stopIgnored is the automatic hard stop: turn is still cancelling HardStopAfter after Stop.
// ladder.ignoredMsg says so; endTurn adds what was killed (killedWords).
// Like HardStop it kills the agent's process group; the turn then ends interrupted and the
// session exited, both with a message that says why, and Continue restarts the agent.
func (s *Session) stopIgnored(turn int) {
	s.mu.Lock()
	if s.state != StateCancelling || !s.turnActive || s.tr.Turn() != turn || s.closing || s.transport == nil {
		s.unlock()
		return // the turn ended (or the session closed) while the timer fired
	}
	s.hardStopped = true
	s.cancelObserverLocked()
	s.ladder.ignoredMsg = fmt.Sprintf("the agent ignored Stop for %s and was stopped hard", spokenDuration(s.cfg.HardStopAfter))
	tr, msg := s.transport, s.ladder.ignoredMsg
	s.unlock()
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

// leftReporter is a Transport that can tell, once its agent has exited, which processes of the
// agent could not be killed (*Process).
type leftReporter interface {
	Left() (pids []int, known bool)
}

// hardStopReport bounds how long the end of a hard-stopped turn waits for the agent's end, to
// say what was killed.
const hardStopReport = 15 * time.Second

// killedWords says what a hard stop killed, and only what it knows it killed: "its processes
// were killed", or which of them still run. It waits for the agent to have exited (a hard stop
// is under way: that takes seconds at most).
func killedWords(tr Transport) string {
	r, ok := tr.(leftReporter)
	if !ok {
		return "its processes were killed" // an agent in this process (tests) has no processes
	}
	t := time.NewTimer(hardStopReport)
	defer t.Stop()
	select {
	case <-tr.Exited():
	case <-t.C:
		return "the agent could not be killed"
	}
	switch left, known := r.Left(); {
	case len(left) > 0:
		return fmt.Sprintf("%d of its processes could not be killed: %s", len(left), supervise.PidList(left))
	case !known:
		return "its process group was killed"
	}
	return "its processes were killed"
}
