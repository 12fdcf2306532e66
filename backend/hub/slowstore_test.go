package hub

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/schema"
	"agentdesk/backend/agents"
	"agentdesk/backend/store"
)

// TestSlowStoreLosesNothingAndNeverSlowsTheSession: the history writer is stuck (its commit
// observer blocks, like a disk that does not answer) while an agent streams a turn of 100,000
// updates. The page still gets every update and the turn end, and a second turn runs, before
// the store has written anything of them; once the store moves again, it holds everything the
// page showed, and the whole journal.
func TestSlowStoreLosesNothingAndNeverSlowsTheSession(t *testing.T) {
	updates := 100_000
	if raceEnabled {
		updates = 20_000
	}
	messages := updates / 100
	dir := t.TempDir()
	script := dir + "/flood.json"
	if err := os.WriteFile(script, []byte("["+handshake+`
		{"expect":"session/prompt"}, {"stream":{"messages":`+strconv.Itoa(messages)+`,"chunks":`+strconv.Itoa(updates)+`}},
		{"reply":{"stopReason":"end_turn"}},
		{"expect":"session/prompt"},
		{"update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"still here"}}},
		{"reply":{"stopReason":"end_turn"}}]`), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	release, blocked := make(chan struct{}), make(chan struct{}, 1)
	var errs []error
	st, err := store.Open(ctx, dir+"/history.db",
		store.WithErrorHandler(func(err error) { errs = append(errs, err) }), // writer goroutine only
		store.WithCommitObserver(func(int) {
			select {
			case blocked <- struct{}{}:
			default:
			}
			<-release
		}))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	self, _ := os.Executable()
	flood := agents.Agent{ID: "flood", Name: "Flood", Command: self, Args: []string{"play-script", script}, Available: true}
	h := New(st, agentList{flood}, t.Logf)
	ui := make(chan acp.Event, 100)
	sess, info, err := h.Start(StartRequest{AgentID: "flood", Cwd: dir}, acp.EmitterFunc(func(ev acp.Event) {
		if ev.Kind == acp.EventState || ev.Kind == acp.EventTurnEnd {
			ui <- ev
		}
	}))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = h.CloseAll(ctx) }()
	waitFor(t, ui, func(e acp.Event) bool { return e.Kind == acp.EventState && e.State == acp.StateIdle })
	<-blocked // the first batch (the session row) is written; from now on the store is stuck
	start := time.Now()

	for _, prompt := range []string{"flood", "are you there?"} {
		if _, err := sess.Prompt(prompt); err != nil {
			t.Fatal(err)
		}
		if end := waitFor(t, ui, func(e acp.Event) bool { return e.Kind == acp.EventTurnEnd }); end.StopReason != schema.StopEndTurn {
			t.Fatalf("turn %q ended %q", prompt, end.StopReason)
		}
	}
	live := sess.Snapshot()
	if n := len(live.Entries); n != 1+messages+2 {
		t.Fatalf("the page shows %d entries, want the prompt, %d messages, a prompt and a reply", n, messages)
	}
	t.Logf("%d updates: the turn took %v while the store was stuck", updates, time.Since(start).Round(time.Millisecond))
	if err := st.Writer().Flush(canceled()); err == nil {
		t.Fatal("the store had written everything although it was stuck: the test proves nothing")
	}

	close(release)
	start = time.Now()
	if err := st.Writer().Flush(ctx); err != nil {
		t.Fatal(err)
	}
	t.Logf("the store caught up in %v", time.Since(start).Round(time.Millisecond))
	if len(errs) > 0 {
		t.Fatalf("write errors: %v", errs)
	}
	_, turns, entries, err := st.Session(ctx, info.SessionID)
	if err != nil {
		t.Fatal(err)
	}
	saved := SnapshotFromStore(store.Session{}, turns, entries)
	if g, w := transcriptMarkdown(saved.Entries), transcriptMarkdown(live.Entries); g != w {
		t.Fatalf("the saved transcript differs from the live one (%d vs %d bytes)", len(g), len(w))
	}
	if len(turns) != 2 || turns[0].StopReason != schema.StopEndTurn || turns[1].StopReason != schema.StopEndTurn {
		t.Errorf("saved turns %+v", turns)
	}
	msgs, err := st.Messages(ctx, info.SessionID)
	if err != nil {
		t.Fatal(err)
	}
	var chunks int
	for _, m := range msgs {
		if m.Method == schema.MethodSessionUpdate && strings.Contains(string(m.JSON), "agent_message_chunk") {
			chunks++
		}
	}
	if chunks != updates+1 {
		t.Errorf("the journal holds %d chunk updates, want %d", chunks, updates+1)
	}
}

// canceled is a context that is already done: Flush with it says whether writes are pending.
func canceled() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return ctx
}
