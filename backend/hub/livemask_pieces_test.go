package hub

import (
	"context"
	"strings"
	"testing"
	"time"

	"agentdesk/backend/acp"
	"agentdesk/backend/agents"
	"agentdesk/backend/store"
)

// TestSecretCutAcrossChunksAndPiecesIsSavedMasked: a known secret of 105 bytes without a space,
// streamed in 20-byte chunks at the end of a full 32 KiB piece of the store (where the store
// would cut it across two pieces), is saved masked: in the entry's text and in the search
// index, whichever piece its parts would have landed in.
func TestSecretCutAcrossChunksAndPiecesIsSavedMasked(t *testing.T) {
	ctx := context.Background()
	st := openTestStore(t, t.TempDir()+"/history.db")
	defer st.Close()
	value := "zqSEC" + strings.Repeat("a1b2c3d4e5", 10)
	m := agents.NewMasker()
	m.Add(value)
	rec := newRecorder(st.Writer(), "s1", agents.Agent{ID: "a"}, time.Now, t.Logf)
	st.Writer().CreateSession(store.Session{ID: "s1", AgentID: "a", Title: "New session", Outcome: store.OutcomeRunning})
	out := &maskedEmitter{mask: newLiveMasker(m), out: recordThen{rec, acp.EmitterFunc(func(acp.Event) {})}}
	seq := 0
	emit := func(ev acp.Event) {
		seq++
		ev.Seq = uint64(seq)
		out.Emit(ev)
		if err := st.Writer().Flush(ctx); err != nil { // a batch each, as a slow stream goes
			t.Fatal(err)
		}
	}
	filler := strings.Repeat("filler ", (32<<10-8)/7)
	emit(acp.Event{Kind: acp.EventEntry, Entry: &acp.Entry{ID: "m1", Kind: acp.KindAgent, Turn: 1, Text: "start "}})
	emit(acp.Event{Kind: acp.EventChunk, EntryID: "m1", Text: filler})
	for i := 0; i < len(value); i += 20 {
		emit(acp.Event{Kind: acp.EventChunk, EntryID: "m1", Text: value[i:min(i+20, len(value))]})
	}
	emit(acp.Event{Kind: acp.EventChunk, EntryID: "m1", Text: " and after"})

	_, _, entries, err := st.Session(ctx, "s1")
	if err != nil || len(entries) != 1 {
		t.Fatalf("%d entries, %v", len(entries), err)
	}
	if want := "start " + filler + agents.Mask + " and after"; entries[0].Text != want {
		t.Errorf("the saved text ends %q, want %q", entries[0].Text[len(want)-40:], want[len(want)-40:])
	}
	for _, q := range []string{value[:15], "e5", "d4e5"} {
		if hits, err := st.ListSessions(ctx, q, 0); err != nil || len(hits) != 0 {
			t.Errorf("a search for %q, a part of the secret, found %d sessions, %v", q, len(hits), err)
		}
	}
	if hits, err := st.ListSessions(ctx, "after", 0); err != nil || len(hits) != 1 {
		t.Errorf("a search for the text after it found %d sessions, %v", len(hits), err)
	}
}
