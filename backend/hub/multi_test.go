package hub

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"

	"go.uber.org/goleak"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/schema"
	"agentdesk/backend/agents"
	"agentdesk/backend/store"
)

// TestFourSessionsStreamThroughOneStore: four live sessions of one hub, saved in one SQLite
// file, stream a turn at the same time, each its own text. Every event a session's emitter gets
// carries that session's id, and the text it builds is that session's text, whole and alone;
// the file holds each turn whole, with its stop reason and outcome; and once CloseAll returns
// and the store is closed, no goroutine of the hub, the engine or the store is left.
func TestFourSessionsStreamThroughOneStore(t *testing.T) {
	// Only what ran before this test (other tests of the binary) is ignored: everything this
	// test starts must end. Run alone it needs no ignore at all: the hub, the engine, the store
	// and modernc's SQLite start no process-wide goroutine.
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	const sessions, messages = 4, 8
	chunks := 2_000
	if raceEnabled {
		chunks = 200
	}
	dir := t.TempDir()
	self, _ := os.Executable()
	list := make(agentList, sessions)
	for i := range list {
		script := fmt.Sprintf("%s/s%d.json", dir, i)
		if err := os.WriteFile(script, []byte(`[
			{"expect":"initialize"}, {"reply":{"protocolVersion":1,"agentCapabilities":{}}},
			{"expect":"session/new"}, {"reply":{"sessionId":"agent-`+strconv.Itoa(i)+`"}},
			{"expect":"session/prompt"},
			{"stream":{"messages":`+strconv.Itoa(messages)+`,"chunks":`+strconv.Itoa(chunks)+`,"texts":["`+marker(i)+`{n} "]}},
			{"reply":{"stopReason":"end_turn"}}]`), 0o600); err != nil {
			t.Fatal(err)
		}
		// A race-enabled agent sleeps a second as it exits (GORACE's atexit_sleep_ms), which
		// CloseAll would wait out: it has no goroutines to wait for.
		list[i] = agents.Agent{ID: strconv.Itoa(i), Name: "Streamer " + strconv.Itoa(i), Command: self,
			Args: []string{"play-script", script}, Env: append(os.Environ(), "GORACE=atexit_sleep_ms=0"), Available: true}
	}
	ctx := context.Background()
	path := dir + "/history.db"
	st := openTestStore(t, path)
	closeStore := sync.OnceFunc(func() { _ = st.Close() })
	defer closeStore()
	h := New(st, list, t.Logf)
	closeAll := sync.OnceFunc(func() { _ = h.CloseAll(ctx) })
	defer closeAll()

	feeds := make([]*feed, sessions)
	live := make([]*acp.Session, sessions)
	for i := range feeds {
		feeds[i] = newFeed()
		s, info, err := h.Start(StartRequest{AgentID: strconv.Itoa(i), Cwd: dir}, feeds[i])
		if err != nil {
			t.Fatal(err)
		}
		if info.SessionID != s.ID() {
			t.Fatalf("Start's info names %s, its session is %s", info.SessionID, s.ID())
		}
		live[i] = s
	}
	for _, f := range feeds {
		waitFor(t, f.marks, func(e acp.Event) bool { return e.Kind == acp.EventState && e.State == acp.StateIdle })
	}
	// All four prompts go out together, each from its own goroutine, as four windows' would.
	var wg sync.WaitGroup
	errs := make([]error, sessions)
	for i, s := range live {
		wg.Add(1)
		go func() { defer wg.Done(); _, errs[i] = s.Prompt("stream " + strconv.Itoa(i)) }()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("prompt %d: %v", i, err)
		}
	}
	for i, f := range feeds {
		end := waitFor(t, f.marks, func(e acp.Event) bool { return e.Kind == acp.EventTurnEnd })
		if end.StopReason != schema.StopEndTurn {
			t.Errorf("session %d ended its turn with %q, want end_turn", i, end.StopReason)
		}
		waitFor(t, f.marks, func(e acp.Event) bool { return e.Kind == acp.EventState && e.State == acp.StateIdle })
	}

	if err := st.Writer().Flush(ctx); err != nil {
		t.Fatal(err)
	}
	ro, err := store.OpenReadOnly(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	for i, s := range live {
		want := streamedText(i, chunks)
		f := feeds[i]
		if wrong := f.foreign(s.ID()); wrong != "" {
			t.Errorf("session %d (%s) got an event of %s", i, s.ID(), wrong)
		}
		if got := f.agentText(); got != want {
			t.Errorf("session %d was shown %d bytes of agent text, want its own %d (starts %.60q)", i, len(got), len(want), got)
		}
		sess, turns, entries, err := ro.Session(ctx, s.ID())
		if err != nil {
			t.Fatalf("session %d is not in the history: %v", i, err)
		}
		if sess.AgentID != strconv.Itoa(i) || sess.Outcome != schema.StopEndTurn {
			t.Errorf("session %d saved as agent %q with outcome %q, want %d and end_turn", i, sess.AgentID, sess.Outcome, i)
		}
		if len(turns) != 1 || turns[0].StopReason != schema.StopEndTurn || turns[0].Prompt != "stream "+strconv.Itoa(i) {
			t.Errorf("session %d saved turns %+v, want its one prompt ended end_turn", i, turns)
		}
		var saved strings.Builder
		agentEntries := 0
		for _, e := range entries {
			if e.Kind == string(acp.KindAgent) {
				agentEntries++
				saved.WriteString(e.Text)
			}
		}
		if agentEntries != messages || saved.String() != want {
			t.Errorf("session %d saved %d agent entries, %d bytes of text, want %d entries of its own %d bytes (starts %.60q)",
				i, agentEntries, saved.Len(), messages, len(want), saved.String())
		}
		snap := SnapshotFromStore(sess, turns, entries)
		if g, w := transcriptMarkdown(snap.Entries), transcriptMarkdown(s.Snapshot().Entries); g != w {
			t.Errorf("session %d: the saved transcript differs from the live one (%d vs %d bytes)", i, len(g), len(w))
		}
	}
	closeAll()
	for i, s := range live {
		if s.State() != acp.StateExited {
			t.Errorf("session %d is %s after CloseAll, want exited", i, s.State())
		}
	}
	closeStore()
}

// marker is the text session i's agent streams, before each chunk's number.
func marker(i int) string { return "s" + strconv.Itoa(i) + "-c" }

// streamedText is all the agent text session i streams in chunks chunks.
func streamedText(i, chunks int) string {
	var b strings.Builder
	for n := 1; n <= chunks; n++ {
		b.WriteString(marker(i) + strconv.Itoa(n) + " ")
	}
	return b.String()
}

// feed is one session's emitter: it keeps every event it is given, in order, and passes state
// and turn_end events on to marks for the test to wait on.
type feed struct {
	marks chan acp.Event
	mu    sync.Mutex
	all   []acp.Event
}

func newFeed() *feed { return &feed{marks: make(chan acp.Event, 64)} }

// Emit keeps ev and passes marks on.
func (f *feed) Emit(ev acp.Event) {
	f.mu.Lock()
	f.all = append(f.all, ev)
	f.mu.Unlock()
	if ev.Kind == acp.EventState || ev.Kind == acp.EventTurnEnd {
		f.marks <- ev
	}
}

// foreign describes the first event not of session id ("" when all are).
func (f *feed) foreign(id string) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, ev := range f.all {
		if ev.SessionID != id {
			return fmt.Sprintf("session %q (seq %d, %s)", ev.SessionID, ev.Seq, ev.Kind)
		}
	}
	return ""
}

// agentText rebuilds the agent entries' text as the page would, from entry upserts and chunks,
// and joins them in the order the entries first appeared.
func (f *feed) agentText() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var order []string
	text := map[string]*strings.Builder{}
	for _, ev := range f.all {
		switch {
		case ev.Kind == acp.EventEntry && ev.Entry != nil && ev.Entry.Kind == acp.KindAgent:
			if text[ev.Entry.ID] == nil {
				order = append(order, ev.Entry.ID)
				text[ev.Entry.ID] = &strings.Builder{}
			}
			text[ev.Entry.ID].Reset()
			text[ev.Entry.ID].WriteString(ev.Entry.Text)
		case ev.Kind == acp.EventChunk:
			if text[ev.EntryID] == nil { // a chunk of an entry never shown: kept, so the text differs
				order = append(order, ev.EntryID)
				text[ev.EntryID] = &strings.Builder{}
			}
			text[ev.EntryID].WriteString(ev.Text)
		}
	}
	var all strings.Builder
	for _, id := range order {
		all.WriteString(text[id].String())
	}
	return all.String()
}
