package acp_test

import (
	"context"
	"io"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/acptest"
	"agentdesk/backend/acp/demoagent"
	"agentdesk/backend/acp/schema"
)

// fakeTimers is the stop ladder's clock in tests: each AfterFunc arrives on armed, and its
// function runs only when the test calls it, as a timer that goes off at that moment would.
type fakeTimers struct{ armed chan *fakeTimer }

type fakeTimer struct {
	d         time.Duration
	fire      func()
	cancelled atomic.Bool
}

func newFakeTimers() *fakeTimers { return &fakeTimers{armed: make(chan *fakeTimer, 16)} }

func (ft *fakeTimers) AfterFunc(d time.Duration, f func()) func() bool {
	tm := &fakeTimer{d: d, fire: f}
	ft.armed <- tm
	return func() bool { return tm.cancelled.CompareAndSwap(false, true) }
}

// next is the timer the session armed; Stop arms it before it returns.
func (ft *fakeTimers) next(t *testing.T) *fakeTimer {
	t.Helper()
	select {
	case tm := <-ft.armed:
		return tm
	default:
		t.Fatal("no hard-stop timer was armed")
		return nil
	}
}

// stubborn takes the prompt, says it is working, reads session/cancel and then neither answers
// the prompt nor stops (it only waits for its stdin to close). Each launch replays it.
const stubborn = handshake + `
 {"expect":"session/prompt"},
 {"update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"working, and I will not stop"}}},
 {"expect":"session/cancel"}]`

// startWithTimers starts a session with agent and the fake timers, and waits until it is idle.
func startWithTimers(t *testing.T, hardStopAfter time.Duration, agent acptest.Agent) (*acp.Session, *events, *fakeTimers) {
	t.Helper()
	ev, timers := newEvents(), newFakeTimers()
	s := acp.NewSession(acp.Config{ID: "s1", AgentName: "stubborn", Cwd: "/p", Emitter: ev, Logf: t.Logf,
		HardStopAfter: hardStopAfter, AfterFunc: timers.AfterFunc,
		Launch: func(context.Context) (acp.Transport, error) { return acptest.Serve(agent), nil }})
	t.Cleanup(func() { s.Close() })
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	return s, ev, timers
}

// promptAndStop starts a turn, waits for the agent's first words and presses Stop.
func promptAndStop(t *testing.T, s *acp.Session, ev *events) {
	t.Helper()
	if _, err := s.Prompt("do something long"); err != nil {
		t.Fatal(err)
	}
	ev.waitFor(t, "the agent's words", func(e acp.Event) bool { return e.Kind == acp.EventEntry && e.Entry.Kind == acp.KindAgent })
	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	ev.waitFor(t, "cancelling", func(e acp.Event) bool { return e.Kind == acp.EventState && e.State == acp.StateCancelling })
}

func TestAnAgentThatIgnoresStopIsStoppedHardAfterTheWait(t *testing.T) {
	sc := script(t, "["+stubborn)
	s, ev, timers := startWithTimers(t, 0, sc.Run)
	promptAndStop(t, s, ev)
	tm := timers.next(t)
	if tm.d != 30*time.Second {
		t.Fatalf("the hard stop waits %s, want 30s", tm.d)
	}
	for _, e := range ev.list() {
		if e.Kind == acp.EventTurnEnd {
			t.Fatal("the turn ended although the agent did not answer")
		}
	}

	tm.fire() // 30 s later, the agent still has not answered
	end := ev.waitFor(t, "turn_end", kind(acp.EventTurnEnd))
	want := "the agent ignored Stop for 30 s and was stopped hard"
	if end.StopReason != schema.StopInterrupted || !strings.Contains(end.Message, want) {
		t.Fatalf("turn ended %q (%q), want interrupted saying %q", end.StopReason, end.Message, want)
	}
	exited := ev.waitFor(t, "exited", func(e acp.Event) bool { return e.Kind == acp.EventState && e.State == acp.StateExited })
	if !strings.Contains(exited.Message, want) {
		t.Fatalf("exited with %q, want it to say %q", exited.Message, want)
	}
	if snap := s.Snapshot(); len(snap.Turns) != 1 || snap.Turns[0].StopReason != schema.StopInterrupted {
		t.Fatalf("turns %+v", snap.Turns)
	}

	// Restart agent: a new agent process in the same session, ready for the next prompt.
	how, err := s.Continue(context.Background())
	if err != nil || how != acp.ContinuedSummarised {
		t.Fatalf("Continue = %q, %v", how, err)
	}
	if st := s.State(); st != acp.StateIdle {
		t.Fatalf("state %s after Continue", st)
	}
	// The reason belonged to that turn: the next one can be stopped and hard-stopped afresh.
	promptAndStop(t, s, ev)
	timers.next(t).fire()
	if end := ev.waitFor(t, "turn_end", kind(acp.EventTurnEnd)); end.Turn != 2 || end.StopReason != schema.StopInterrupted {
		t.Fatalf("second turn ended %+v", end)
	}
}

func TestAnAgentThatHonoursStopIsNotStoppedHard(t *testing.T) {
	s, ev, timers := startWithTimers(t, 5*time.Second, func(in io.Reader, out io.Writer) error { return demoagent.Serve(in, out, 0) })
	if _, err := s.Prompt("hello"); err != nil {
		t.Fatal(err)
	}
	ev.waitFor(t, "permission", kind(acp.EventPermission))
	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	tm := timers.next(t)
	if tm.d != 5*time.Second {
		t.Fatalf("the hard stop waits %s, want the configured 5s", tm.d)
	}
	if end := ev.waitFor(t, "turn_end", kind(acp.EventTurnEnd)); end.StopReason != schema.StopCancelled {
		t.Fatalf("stop reason %q, want cancelled", end.StopReason)
	}
	ev.waitFor(t, "idle", func(e acp.Event) bool { return e.Kind == acp.EventState && e.State == acp.StateIdle })
	if !tm.cancelled.Load() {
		t.Fatal("the turn ended but its hard stop was not cancelled")
	}
	tm.fire() // a timer that went off just as the turn ended changes nothing
	if st := s.State(); st != acp.StateIdle {
		t.Fatalf("state %s after a late timer, want idle", st)
	}
	if _, err := s.Prompt("again"); err != nil {
		t.Fatalf("the agent was stopped by a late timer: %v", err)
	}
	answerNext(t, s, ev, schema.AllowOnce)
	if end := ev.waitFor(t, "turn_end", kind(acp.EventTurnEnd)); end.StopReason != schema.StopEndTurn {
		t.Fatalf("second turn ended %+v", end)
	}
}

func TestNoAutomaticHardStopWhenTheCallerDecides(t *testing.T) {
	sc := script(t, "["+stubborn)
	s, ev, timers := startWithTimers(t, -1, sc.Run)
	promptAndStop(t, s, ev)
	select {
	case tm := <-timers.armed:
		t.Fatalf("a hard stop was armed (%s) although HardStopAfter is negative", tm.d)
	default:
	}
	if err := s.HardStop(); err != nil {
		t.Fatal(err)
	}
	if end := ev.waitFor(t, "turn_end", kind(acp.EventTurnEnd)); end.StopReason != schema.StopInterrupted || strings.Contains(end.Message, "ignored") {
		t.Fatalf("turn ended %+v, want interrupted by the user's hard stop", end)
	}
}
