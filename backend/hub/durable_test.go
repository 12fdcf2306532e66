package hub

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"testing"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/schema"
	"agentdesk/backend/store"
)

// TestTurnEndIsShownOnlyOnceItsTurnIsSaved: when the page gets a turn's end, the turn is
// already committed: a second connection to the file, opened by the emitter as the turn_end
// arrives, reads its stop reason and every message the turn streamed, whole.
func TestTurnEndIsShownOnlyOnceItsTurnIsSaved(t *testing.T) {
	updates := 20_000 // a batch long enough to be still writing when a late turn_end is shown
	if raceEnabled {
		updates = 4_000
	}
	messages := 20
	dir := t.TempDir()
	h, _ := scriptHub(t, dir, "["+handshake+`
		{"expect":"session/prompt"}, {"stream":{"messages":`+strconv.Itoa(messages)+`,"chunks":`+strconv.Itoa(updates)+`}},
		{"reply":{"stopReason":"end_turn"}}]`)
	ctx := context.Background()
	path := filepath.Join(dir, "history.db")
	defer func() { _ = h.CloseAll(ctx) }()

	// What a second connection reads when each turn_end reaches the page.
	type seen struct {
		stop    string
		entries int
		text    int
		err     error
	}
	ui, ends := make(chan acp.Event, 100), make(chan seen, 1)
	var id string
	sess, info, err := h.Start(StartRequest{AgentID: "a", Cwd: dir}, acp.EmitterFunc(func(ev acp.Event) {
		if ev.Kind != acp.EventTurnEnd {
			if ev.Kind == acp.EventState {
				ui <- ev
			}
			return
		}
		ro, err := store.OpenReadOnly(ctx, path)
		if err != nil {
			ends <- seen{err: err}
			return
		}
		defer ro.Close()
		_, turns, entries, err := ro.Session(ctx, id)
		var s seen
		if err != nil || len(turns) != 1 {
			s.err = fmt.Errorf("%d turns, %v", len(turns), err)
		} else {
			s.stop = turns[0].StopReason
		}
		for _, e := range entries {
			if e.Kind == string(acp.KindAgent) {
				s.entries++
				s.text += len(e.Text)
			}
		}
		ends <- s
	}))
	if err != nil {
		t.Fatal(err)
	}
	id = info.SessionID
	waitFor(t, ui, func(e acp.Event) bool { return e.Kind == acp.EventState && e.State == acp.StateIdle })
	if _, err := sess.Prompt("stream"); err != nil {
		t.Fatal(err)
	}
	got := <-ends
	live := 0
	for _, e := range sess.Snapshot().Entries {
		if e.Kind == acp.KindAgent {
			live += len(e.Text)
		}
	}
	if got.err != nil || got.stop != schema.StopEndTurn || got.entries != messages || got.text != live {
		t.Fatalf("as the turn's end was shown, the file held stop reason %q, %d of %d messages, %d of %d bytes (%v)",
			got.stop, got.entries, messages, got.text, live, got.err)
	}
}
