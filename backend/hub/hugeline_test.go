package hub

import (
	"context"
	"encoding/json"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/acptest"
	"agentdesk/backend/acp/schema"
	"agentdesk/backend/agents"
	"agentdesk/backend/store"
)

// TestHugeLineIsStoredOnce: an agent sends one agent_message_chunk of 50 MB on one line (4 MB
// under the race detector). The history keeps its text once: in the entry's text, not again in
// the entry's body, and the journal keeps the message cut to a bounded size. It logs the bytes
// allocated and the peak heap per byte of the line.
func TestHugeLineIsStoredOnce(t *testing.T) {
	size := 50 << 20
	if raceEnabled {
		size = 4 << 20
	}
	text := strings.Repeat("word ", size/5)
	steps, err := json.Marshal(acptest.OneMessageTurn(text))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	script := dir + "/huge.json"
	if err := os.WriteFile(script, steps, 0o600); err != nil {
		t.Fatal(err)
	}
	steps = nil
	ctx := context.Background()
	st := openTestStore(t, dir+"/history.db")
	defer st.Close()
	self, _ := os.Executable()
	agent := agents.Agent{ID: "a", Name: "Huge", Command: self, Args: []string{"play-script", script}, Available: true}
	h := New(st, agentList{agent}, t.Logf)
	defer func() { _ = h.CloseAll(ctx) }()
	ui := make(chan acp.Event, 16)
	sess, info, err := h.Start(StartRequest{AgentID: "a", Cwd: dir}, acp.EmitterFunc(func(ev acp.Event) {
		if ev.Kind == acp.EventState || ev.Kind == acp.EventTurnEnd {
			ui <- acp.Event{Kind: ev.Kind, State: ev.State, StopReason: ev.StopReason}
		}
	}))
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, ui, func(e acp.Event) bool { return e.Kind == acp.EventState && e.State == acp.StateIdle })

	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	peak := acptest.HeapPeak()
	start := time.Now()
	if _, err := sess.Prompt("go"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ui, func(e acp.Event) bool { return e.Kind == acp.EventTurnEnd })
	ended := time.Since(start)
	if err := st.Writer().Flush(ctx); err != nil {
		t.Fatal(err)
	}
	t.Logf("the turn ended after %v, its history was saved after %v", ended.Round(time.Millisecond), time.Since(start).Round(time.Millisecond))
	top := peak()
	runtime.ReadMemStats(&after)
	t.Logf("a line of %d MB: %.1f bytes allocated and a peak heap of %.1f per byte of the line",
		size>>20, float64(after.TotalAlloc-before.TotalAlloc)/float64(size), float64(top-before.HeapAlloc)/float64(size))

	ro, err := store.OpenReadOnly(ctx, st.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	var journal, texts, bodies int64
	msgs, err := ro.Messages(ctx, info.SessionID)
	if err != nil {
		t.Fatal(err)
	}
	var cut string
	for _, m := range msgs {
		journal += int64(len(m.JSON))
		if m.Method == schema.MethodSessionUpdate {
			cut = string(m.JSON)
		}
	}
	_, _, entries, err := ro.Session(ctx, info.SessionID)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		texts += int64(len(e.Text))
		bodies += int64(len(e.Body))
	}
	t.Logf("stored: journal %d bytes, entries' text %d, entries' bodies %d: %.2f times the line",
		journal, texts, bodies, float64(journal+texts+bodies)/float64(size))
	if texts < int64(len(text)) {
		t.Errorf("the entries hold %d bytes of text, want the whole %d", texts, len(text))
	}
	if stored := journal + texts + bodies; stored > int64(size)+2<<20 { // the text, and a journal cut to 1 MB
		t.Errorf("the history holds %d bytes for a line of %d: the text is stored more than once", stored, size)
	}
	if !json.Valid([]byte(cut)) || !strings.Contains(cut, "agent_message_chunk") {
		t.Errorf("the journal's update does not read as JSON any more: %.200q", cut)
	}
	saved := SnapshotFromStore(store.Session{}, nil, entries)
	if g, w := transcriptMarkdown(saved.Entries), transcriptMarkdown(sess.Snapshot().Entries); g != w {
		t.Errorf("the saved transcript differs from the live one (%d vs %d bytes)", len(g), len(w))
	}
}
