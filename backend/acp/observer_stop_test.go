package acp_test

import (
	"context"
	"testing"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/schema"
)

// blockedObserver plays a turn's snapshot that cannot finish (a folder whose reading does not
// return): the call of phase ("start" or "end") of the first turn blocks until the session
// ends its context. entered is closed when it blocks; every other call returns at once.
type blockedObserver struct {
	phase   string
	entered chan struct{}
}

func (o *blockedObserver) block(ctx context.Context, phase string, turn int) {
	if phase != o.phase || turn != 1 {
		return
	}
	close(o.entered)
	<-ctx.Done()
}

func (o *blockedObserver) TurnStarted(ctx context.Context, turn int) { o.block(ctx, "start", turn) }

func (o *blockedObserver) TurnEnded(ctx context.Context, turn int) *schema.TurnChanges {
	o.block(ctx, "end", turn)
	return &schema.TurnChanges{}
}

// cancellable answers each prompt when it is cancelled, and a second prompt at once.
const cancellable = `[` + handshake + `
 {"expect":"session/prompt"}, {"expect":"session/cancel"}, {"reply":{"stopReason":"cancelled"}},
 {"expect":"session/prompt"}, {"reply":{"stopReason":"end_turn"}},
 {"expect":"never"}]`

// blockedTurn starts a session against the script with a blockedObserver for phase, prompts it
// and returns once the turn's snapshot of that phase is blocked.
func blockedTurn(t *testing.T, phase, steps string) (*acp.Session, *events) {
	t.Helper()
	obs := &blockedObserver{phase: phase, entered: make(chan struct{})}
	s, ev := runScript(t, script(t, steps), nil, func(c *acp.Config) {
		c.Turns = obs
		c.HardStopAfter = -1
	})
	if _, err := s.Prompt("do something"); err != nil {
		t.Fatal(err)
	}
	<-obs.entered
	return s, ev
}

// TestStopEndsATurnWhoseSnapshotIsBlocked: Stop pressed while the turn's start snapshot cannot
// finish ends the snapshot and the turn (cancelled); the next turn runs.
func TestStopEndsATurnWhoseSnapshotIsBlocked(t *testing.T) {
	s, ev := blockedTurn(t, "start", cancellable)
	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	if end := ev.waitFor(t, "turn_end", kind(acp.EventTurnEnd)); end.StopReason != schema.StopCancelled {
		t.Fatalf("turn ended %+v, want cancelled", end)
	}
	if _, err := s.Prompt("again"); err != nil {
		t.Fatal(err)
	}
	if end := ev.waitFor(t, "turn_end", kind(acp.EventTurnEnd)); end.Turn != 2 || end.StopReason != schema.StopEndTurn {
		t.Fatalf("second turn ended %+v", end)
	}
}

// TestHardStopEndsATurnWhoseSnapshotIsBlocked: a hard stop while the turn's end snapshot cannot
// finish ends the snapshot and the turn (interrupted), and the agent.
func TestHardStopEndsATurnWhoseSnapshotIsBlocked(t *testing.T) {
	s, ev := blockedTurn(t, "end", `[`+handshake+`{"expect":"session/prompt"}, {"reply":{"stopReason":"end_turn"}}, {"expect":"never"}]`)
	if err := s.HardStop(); err != nil {
		t.Fatal(err)
	}
	if end := ev.waitFor(t, "turn_end", kind(acp.EventTurnEnd)); end.StopReason != schema.StopInterrupted {
		t.Fatalf("turn ended %+v, want interrupted", end)
	}
}
