package acp_test

import (
	"fmt"
	"sync/atomic"
	"testing"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/jsonrpc"
	"agentdesk/backend/acp/schema"
)

// fencedEmitter records events and notes any emitted while a Checkpoint's fn runs.
type fencedEmitter struct {
	*events
	inFn      atomic.Bool
	last      atomic.Uint64
	intrusion atomic.Bool
}

var _ acp.Emitter = (*fencedEmitter)(nil)

func (f *fencedEmitter) Emit(ev acp.Event) {
	if f.inFn.Load() {
		f.intrusion.Store(true)
	}
	f.last.Store(ev.Seq)
	f.events.Emit(ev)
}

// TestCheckpointSplitsTheEventStream takes checkpoints while an agent streams: each snapshot
// is exactly the fold of the events delivered before it, and no event is delivered while fn runs.
func TestCheckpointSplitsTheEventStream(t *testing.T) {
	const n = 20_000
	f := &fencedEmitter{events: newEvents()}
	streaming := make(chan struct{})
	s := startScripted(t, t.TempDir(), f, func(c *jsonrpc.Conn, req *jsonrpc.Request) {
		for i := range n {
			if i == 10 {
				close(streaming)
			}
			sendUpdate(c, fmt.Sprintf(`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"%d,"}}`, i))
		}
		req.Reply(schema.PromptResult{StopReason: schema.StopEndTurn}, nil)
	})
	if _, err := s.Prompt("stream"); err != nil {
		t.Fatal(err)
	}
	<-streaming
	var snaps []acp.Snapshot
	for range 50 {
		s.Checkpoint(func(snap acp.Snapshot) {
			f.inFn.Store(true)
			if last := f.last.Load(); last != snap.Seq {
				t.Errorf("checkpoint at seq %d, but the last delivered event is %d", snap.Seq, last)
			}
			snaps = append(snaps, snap)
			f.inFn.Store(false)
		})
	}
	f.waitFor(t, "turn_end", kind(acp.EventTurnEnd))
	if f.intrusion.Load() {
		t.Error("an event was delivered while a checkpoint's fn ran")
	}
	evs := f.list()
	for _, snap := range snaps {
		assertFoldEqualsSnapshot(t, evs[:snap.Seq], snap)
	}
}
