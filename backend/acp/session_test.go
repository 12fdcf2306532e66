package acp_test

import (
	"context"
	"errors"
	"io"
	"sync"
	"testing"
	"time"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/acptest"
	"agentdesk/backend/acp/demoagent"
	"agentdesk/backend/acp/schema"
)

// events collects a session's events and lets a test wait for one.
type events struct {
	mu   sync.Mutex
	all  []acp.Event
	grew chan struct{} // closed (and replaced) when an event arrives
	feed chan acp.Event
}

var _ acp.Emitter = (*events)(nil)

func newEvents() *events {
	return &events{feed: make(chan acp.Event, 100000), grew: make(chan struct{})}
}

func (e *events) Emit(ev acp.Event) {
	e.mu.Lock()
	e.all = append(e.all, ev)
	close(e.grew)
	e.grew = make(chan struct{})
	e.mu.Unlock()
	e.feed <- ev
}

// upTo returns the events 1..seq once all of them have been delivered: a snapshot does not wait
// for the Emitter, so the events it folds may still be on their way when it returns.
func (e *events) upTo(t *testing.T, seq uint64) []acp.Event {
	t.Helper()
	timeout := time.After(20 * time.Second)
	for {
		e.mu.Lock()
		if n := len(e.all); seq == 0 || n > 0 && e.all[n-1].Seq >= seq {
			var out []acp.Event
			for _, ev := range e.all {
				if ev.Seq <= seq {
					out = append(out, ev)
				}
			}
			e.mu.Unlock()
			return out
		}
		grew := e.grew
		e.mu.Unlock()
		select {
		case <-grew:
		case <-timeout:
			t.Fatalf("event %d was never delivered", seq)
		}
	}
}

// waitFor returns the first event (from now on) that matches, failing after a generous bound
// that only a hung test reaches.
func (e *events) waitFor(t *testing.T, what string, match func(acp.Event) bool) acp.Event {
	t.Helper()
	return acptest.Await(t, e.feed, what+" event", match)
}

// waitForAll waits until each of matches has matched an event, in whatever order they come:
// for events that race each other, such as a turn's end and a release's exit report.
func (e *events) waitForAll(t *testing.T, what string, matches ...func(acp.Event) bool) {
	t.Helper()
	left := append([]func(acp.Event) bool(nil), matches...)
	timeout := time.After(20 * time.Second)
	for len(left) > 0 {
		select {
		case ev := <-e.feed:
			for i, match := range left {
				if match(ev) {
					left = append(left[:i], left[i+1:]...)
					break
				}
			}
		case <-timeout:
			t.Fatalf("no %s events (%d of %d not seen)", what, len(left), len(matches))
		}
	}
}

func (e *events) list() []acp.Event {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]acp.Event(nil), e.all...)
}

func kind(k acp.EventKind) func(acp.Event) bool {
	return func(ev acp.Event) bool { return ev.Kind == k }
}

// startDemo starts a session with the in-process Demo agent (no pauses) and waits until idle.
func startDemo(t *testing.T, pace time.Duration) (*acp.Session, *events) {
	return startDemoIn(t, pace, t.TempDir())
}

func startDemoIn(t *testing.T, pace time.Duration, cwd string) (*acp.Session, *events) {
	t.Helper()
	ev := newEvents()
	s := acp.NewSession(acp.Config{
		ID: "s1", AgentName: "Demo agent", Cwd: cwd, Emitter: ev, Logf: t.Logf,
		Launch: func(context.Context) (acp.Transport, error) {
			return acptest.Serve(func(in io.Reader, out io.Writer) error { return demoagent.Serve(in, out, pace) }), nil
		},
	})
	t.Cleanup(func() { s.Close() })
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	if s.State() != acp.StateIdle {
		t.Fatalf("state %s after Start", s.State())
	}
	return s, ev
}

func answerNext(t *testing.T, s *acp.Session, ev *events, optionKind string) acp.Event {
	t.Helper()
	p := ev.waitFor(t, "permission", kind(acp.EventPermission))
	id := acp.PolicyOption(map[string]string{schema.AllowOnce: "allow", schema.RejectOnce: "reject"}[optionKind], p.Options)
	if err := s.AnswerPermission(p.RequestID, "no-such-option"); !errors.Is(err, acp.ErrNoSuchOption) {
		t.Fatalf("an option the agent did not offer: %v, want ErrNoSuchOption", err)
	}
	if err := s.AnswerPermission(p.RequestID, id); err != nil {
		t.Fatal(err)
	}
	if err := s.AnswerPermission(p.RequestID, id); !errors.Is(err, acp.ErrPermissionNotOpen) {
		t.Fatalf("a permission request answered twice: %v, want ErrPermissionNotOpen", err)
	}
	return p
}

func TestDemoTurnAllowed(t *testing.T) {
	s, ev := startDemo(t, 0)
	if _, err := s.Prompt("hello"); err != nil {
		t.Fatal(err)
	}
	if n, err := s.Prompt("again"); err != nil || n != 0 {
		t.Fatalf("second prompt during a turn: turn %d, %v; want it queued", n, err)
	}
	if q := s.Queue(); len(q) != 1 || q[0].Text != "again" || s.RemoveQueued(q[0].ID) != nil {
		t.Fatalf("queue %+v, want the second prompt, removable", q)
	}
	p := answerNext(t, s, ev, schema.AllowOnce)
	end := ev.waitFor(t, "turn_end", kind(acp.EventTurnEnd))
	if end.StopReason != schema.StopEndTurn {
		t.Fatalf("stop reason %q", end.StopReason)
	}
	snap := s.Snapshot()
	var tool *acp.Entry
	for i, e := range snap.Entries {
		if e.ID == p.ToolCallID {
			tool = &snap.Entries[i]
		}
	}
	if tool == nil || tool.Status != acp.StatusCompleted || tool.Content[0].Type != "diff" {
		t.Fatalf("the permission's tool card is %+v, want a completed edit with a diff", tool)
	}
	evs := ev.upTo(t, snap.Seq)
	assertSeqContiguous(t, evs)
	assertFoldEqualsSnapshot(t, evs, snap)
}

func TestDemoTurnRejected(t *testing.T) {
	s, ev := startDemo(t, 0)
	if _, err := s.Prompt("hello"); err != nil {
		t.Fatal(err)
	}
	p := answerNext(t, s, ev, schema.RejectOnce)
	if end := ev.waitFor(t, "turn_end", kind(acp.EventTurnEnd)); end.StopReason != schema.StopEndTurn {
		t.Fatalf("stop reason %q", end.StopReason)
	}
	for _, e := range s.Snapshot().Entries {
		if e.ID == p.ToolCallID && e.Status != acp.StatusFailed {
			t.Fatalf("rejected edit has status %q", e.Status)
		}
	}
}

// stopAtPermission prompts, presses Stop while the turn's permission is open, and returns the
// permission, failing unless Stop cancelled it and the turn.
func stopAtPermission(t *testing.T, s *acp.Session, ev *events) acp.Event {
	t.Helper()
	if _, err := s.Prompt("hello"); err != nil {
		t.Fatal(err)
	}
	p := ev.waitFor(t, "permission", kind(acp.EventPermission))
	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	done := ev.waitFor(t, "permission_done", kind(acp.EventPermissionDone))
	if done.RequestID != p.RequestID || done.Decision.Outcome != "cancelled" {
		t.Fatalf("permission_done %+v, want %s cancelled", done, p.RequestID)
	}
	if end := ev.waitFor(t, "turn_end", kind(acp.EventTurnEnd)); end.StopReason != schema.StopCancelled {
		t.Fatalf("turn_end %+v, want cancelled whatever the agent answered", end)
	}
	return p
}

func TestStopWithPermissionOpen(t *testing.T) {
	s, ev := startDemo(t, 0)
	p := stopAtPermission(t, s, ev)
	for _, e := range s.Snapshot().Entries {
		if e.ID == p.ToolCallID && e.Status != acp.StatusCancelled {
			t.Fatalf("the stopped edit has status %q, want cancelled", e.Status)
		}
	}
	// The session stays warm: the next turn runs on the same agent.
	ev.waitFor(t, "idle", func(e acp.Event) bool { return e.Kind == acp.EventState && e.State == acp.StateIdle })
	if _, err := s.Prompt("again"); err != nil {
		t.Fatalf("prompt after Stop: %v", err)
	}
	answerNext(t, s, ev, schema.AllowOnce)
	if end := ev.waitFor(t, "turn_end", kind(acp.EventTurnEnd)); end.StopReason != schema.StopEndTurn || end.Turn != 2 {
		t.Fatalf("second turn ended %+v", end)
	}
}

func TestStopWhileStreaming(t *testing.T) {
	s, ev := startDemo(t, time.Millisecond)
	if _, err := s.Prompt("hello"); err != nil {
		t.Fatal(err)
	}
	ev.waitFor(t, "a chunk", kind(acp.EventChunk))
	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	if end := ev.waitFor(t, "turn_end", kind(acp.EventTurnEnd)); end.StopReason != schema.StopCancelled {
		t.Fatalf("stop reason %q, want cancelled", end.StopReason)
	}
}

func assertSeqContiguous(t *testing.T, evs []acp.Event) {
	t.Helper()
	for i, e := range evs {
		if e.Seq != uint64(i+1) || e.SessionID != "s1" {
			t.Fatalf("event %d has seq %d session %q, want seq %d session s1", i, e.Seq, e.SessionID, i+1)
		}
	}
}
