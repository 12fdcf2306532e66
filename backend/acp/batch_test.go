package acp_test

import (
	"bytes"
	"context"
	"io"
	"sync"
	"testing"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/acptest"
	"agentdesk/backend/acp/jsonrpc"
)

// batches is a BatchEmitter that records the size of every batch; its first batch waits until
// `release` is closed, so the events of a whole stream queue up behind it.
type batches struct {
	*events
	release chan struct{}
	once    sync.Once
	mu      sync.Mutex
	sizes   []int
}

var _ acp.BatchEmitter = (*batches)(nil)

func (b *batches) EmitBatch(evs []acp.Event) {
	b.once.Do(func() { <-b.release })
	b.mu.Lock()
	b.sizes = append(b.sizes, len(evs))
	b.mu.Unlock()
	for _, ev := range evs {
		b.Emit(ev)
	}
}

func TestAStreamReachesABatchEmitterInOrderedSlicesOfAtMostMaxBatch(t *testing.T) {
	sc := script(t, "["+handshake+`
 {"expect":"session/prompt"},
 {"stream":{"messages":1000,"chunks":3000,"texts":["chunk {n} "]}},
 {"reply":{"stopReason":"end_turn"}}]`)
	out := &batches{events: newEvents(), release: make(chan struct{})}
	var replied sync.Once
	s := acp.NewSession(acp.Config{ID: "s1", AgentName: "scripted", Cwd: "/p", Emitter: out, Logf: t.Logf,
		// The agent's reply comes after its whole stream: by then the stream is queued behind
		// the held first batch.
		Journal: func(dir jsonrpc.Direction, _ string, line []byte) {
			if dir == jsonrpc.In && bytes.Contains(line, []byte(`"stopReason"`)) {
				replied.Do(func() { close(out.release) })
			}
		},
		Launch: func(context.Context) (acp.Transport, error) {
			return acptest.Serve(func(in io.Reader, w io.Writer) error { return sc.Run(in, w) }), nil
		}})
	t.Cleanup(func() { s.Close() })
	go func() { // the handshake's events are the first batch: release it only for the prompt
		if err := s.Start(context.Background()); err != nil {
			t.Error(err)
			return
		}
		if _, err := s.Prompt("go"); err != nil {
			t.Error(err)
		}
	}()
	out.waitFor(t, "turn_end", kind(acp.EventTurnEnd))

	snap := s.Snapshot()
	all := out.upTo(t, snap.Seq)
	assertSeqContiguous(t, all)
	assertFoldEqualsSnapshot(t, all, snap)
	out.mu.Lock()
	defer out.mu.Unlock()
	largest, total := 0, 0
	for _, n := range out.sizes {
		largest = max(largest, n)
		total += n
	}
	if largest != acp.MaxBatch {
		t.Fatalf("largest batch %d events, want exactly MaxBatch (%d): the queued stream was not sliced", largest, acp.MaxBatch)
	}
	if total != len(all) {
		t.Fatalf("%d events came in batches, %d in all: some came one by one", total, len(all))
	}
}
