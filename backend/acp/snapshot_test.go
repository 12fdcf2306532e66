package acp_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/jsonrpc"
	"agentdesk/backend/acp/schema"
)

// holdEmitter records events like events, but once hold is set its next Emit blocks until
// unblock: an emitter stuck (a page that does not read, a disk that does not write).
type holdEmitter struct {
	*events
	hold    atomic.Bool
	stuck   chan struct{} // closed when an Emit is held
	release chan struct{}
	onStuck sync.Once
	onFree  sync.Once
}

var _ acp.Emitter = (*holdEmitter)(nil)

func newHoldEmitter() *holdEmitter {
	return &holdEmitter{events: newEvents(), stuck: make(chan struct{}), release: make(chan struct{})}
}

func (h *holdEmitter) Emit(ev acp.Event) {
	if h.hold.Load() {
		h.onStuck.Do(func() { close(h.stuck) })
		<-h.release
	}
	h.events.Emit(ev)
}

func (h *holdEmitter) unblock() { h.onFree.Do(func() { close(h.release) }) }

// within returns what ch gives, failing after a bound only a hung engine reaches.
func within[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(20 * time.Second):
		t.Fatalf("%s", what)
		panic("unreachable")
	}
}

// snapshotWithin takes a snapshot, failing if Snapshot does not return: it must never wait for
// the Emitter.
func snapshotWithin(t *testing.T, s *acp.Session) acp.Snapshot {
	t.Helper()
	got := make(chan acp.Snapshot, 1)
	go func() { got <- s.Snapshot() }()
	return within(t, got, "Snapshot waited for the stuck Emitter")
}

// TestAStuckEmitterStopsNeitherSnapshotsNorTheAgent: while the Emitter is stuck, a Snapshot
// returns, a Checkpoint waits for the emitter without holding the session, and the agent's
// session/update, permission request and fs/read_text_file are all handled and answered.
func TestAStuckEmitterStopsNeitherSnapshotsNorTheAgent(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "notes.txt")
	must(t, os.WriteFile(file, []byte("hello"), 0o644))
	em := newHoldEmitter()
	agentGo, read, decided := make(chan struct{}), make(chan string, 1), make(chan string, 1)
	s := startScripted(t, dir, em, func(c *jsonrpc.Conn, req *jsonrpc.Request) {
		<-agentGo
		sendUpdate(c, `{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"working"}}`)
		perm, err := askPermission(c, "t1", "Edit notes.txt")
		if err != nil {
			read <- err.Error()
			return
		}
		// Handled after the permission request (wire order): once it is answered, that is parked.
		var res struct{ Content string }
		err = c.Call(context.Background(), schema.MethodReadTextFile, schema.ReadTextFileParams{SessionID: "p1", Path: file}, &res)
		read <- fmt.Sprint(res.Content, err)
		var out schema.RequestPermissionResult
		err = perm.Wait(context.Background(), &out)
		decided <- fmt.Sprint(out.Outcome.Outcome, " ", out.Outcome.OptionID, " ", err)
		req.Reply(schema.PromptResult{StopReason: schema.StopEndTurn}, nil)
	})
	t.Cleanup(em.unblock) // before the session's Close: cleanups run last first

	em.hold.Store(true)
	if _, err := s.Prompt("go"); err != nil {
		t.Fatal(err)
	}
	within(t, em.stuck, "the emitter was never called")
	if snap := snapshotWithin(t, s); snap.State != acp.StateRunning {
		t.Fatalf("snapshot state %s, want running", snap.State)
	}
	checkpoint := make(chan acp.Snapshot, 1)
	go s.Checkpoint(func(snap acp.Snapshot) { checkpoint <- snap })

	close(agentGo)
	if got := within(t, read, "the agent's fs/read_text_file was not answered while the emitter was stuck"); got != "hello<nil>" {
		t.Fatalf("the agent read %q", got)
	}
	perms := snapshotWithin(t, s).Permissions
	if len(perms) != 1 || perms[0].Title != "Edit notes.txt" {
		t.Fatalf("open permissions %+v, want the agent's one", perms)
	}
	if err := s.AnswerPermission(perms[0].RequestID, "ok"); err != nil {
		t.Fatal(err)
	}
	if got := within(t, decided, "the permission answer did not reach the agent while the emitter was stuck"); got != "selected ok <nil>" {
		t.Fatalf("the agent got %q", got)
	}
	select {
	case <-checkpoint:
		t.Fatal("a checkpoint ran before the events queued ahead of it were delivered")
	default:
	}

	em.unblock()
	em.waitFor(t, "turn_end", kind(acp.EventTurnEnd))
	cp := within(t, checkpoint, "the checkpoint never ran")
	final := s.Snapshot()
	evs := em.upTo(t, final.Seq)
	assertSeqContiguous(t, evs)
	assertFoldEqualsSnapshot(t, evs, final)
	assertFoldEqualsSnapshot(t, evs[:cp.Seq], cp)
}

// TestAPageThatSnapshotsMidStreamGetsEveryEventOnce plays the page: it takes a snapshot while a
// message streams in behind a stuck Emitter (its chunks queued and merged), then applies only
// the events after the snapshot's Seq. It must see them gap-free, in order, and end with
// exactly the session's text: no chunk lost into an event the snapshot already counted, none
// doubled.
func TestAPageThatSnapshotsMidStreamGetsEveryEventOnce(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "notes.txt")
	must(t, os.WriteFile(file, []byte("x"), 0o644))
	em := newHoldEmitter()
	half, more, streamed := make(chan struct{}), make(chan struct{}), make(chan struct{})
	s := startScripted(t, dir, em, func(c *jsonrpc.Conn, req *jsonrpc.Request) {
		stream := func(from, to int) {
			for i := from; i < to; i++ {
				sendUpdate(c, fmt.Sprintf(`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"%d,"}}`, i))
			}
			// Answered only once every chunk before it has been applied (wire order).
			_ = c.Call(context.Background(), schema.MethodReadTextFile, schema.ReadTextFileParams{SessionID: "p1", Path: file}, nil)
		}
		stream(0, 50)
		close(half)
		<-more
		stream(50, 100)
		close(streamed)
		req.Reply(schema.PromptResult{StopReason: schema.StopEndTurn}, nil)
	})
	t.Cleanup(em.unblock)
	var want strings.Builder
	for i := range 100 {
		fmt.Fprintf(&want, "%d,", i)
	}

	em.hold.Store(true)
	if _, err := s.Prompt("count"); err != nil {
		t.Fatal(err)
	}
	within(t, half, "the agent did not stream")
	page := snapshotWithin(t, s)
	if got := page.Entries[len(page.Entries)-1].Text; !strings.HasSuffix(got, "48,49,") {
		t.Fatalf("the snapshot's message ends %q, want the first 50 chunks", got)
	}
	close(more)
	within(t, streamed, "the agent did not stream the rest")
	em.unblock()
	em.waitFor(t, "turn_end", kind(acp.EventTurnEnd))

	final := s.Snapshot()
	shown, seq := page.Entries, page.Seq
	for _, ev := range em.upTo(t, final.Seq) {
		if ev.Seq <= seq {
			continue // in the snapshot already: the page drops it
		}
		if ev.Seq != seq+1 {
			t.Fatalf("after seq %d the page got %d: a gap", seq, ev.Seq)
		}
		shown, seq = foldOnto(shown, []acp.Event{ev}), ev.Seq
	}
	if seq != final.Seq {
		t.Fatalf("the page ends at seq %d, the session at %d", seq, final.Seq)
	}
	if got, want := markdown(shown), markdown(final.Entries); got != want {
		t.Fatalf("the page shows\n%s\nthe session\n%s", got, want)
	}
	if got := final.Entries[len(final.Entries)-1].Text; got != want.String() {
		t.Fatalf("the message is %q, want %q", got, want.String())
	}
}
