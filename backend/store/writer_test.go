package store

import (
	"context"
	"database/sql"
	"strconv"
	"testing"
	"time"
)

func ptr(s string) *string { return &s }

// openBatched opens a test store whose writer commits a batch only at maxOps operations (or a
// Flush, never on time), and sends each batch's op count on the channel.
func openBatched(t *testing.T, maxOps int) (testStore, chan int) {
	t.Helper()
	commits := make(chan int, 64)
	return openTest(t, WithBatch(time.Hour, maxOps), WithCommitObserver(func(n int) { commits <- n })), commits
}

// nextCommit waits for the writer's next batch; the timeout only guards against a hang.
func nextCommit(t *testing.T, commits chan int) int {
	t.Helper()
	select {
	case n := <-commits:
		return n
	case <-time.After(10 * time.Second):
		t.Fatal("no commit within 10 s")
		return 0
	}
}

func noCommitYet(t *testing.T, commits chan int) {
	t.Helper()
	select {
	case n := <-commits:
		t.Fatalf("a batch of %d ops was committed early", n)
	default:
	}
}

func TestWriterRoundTrip(t *testing.T) {
	s, commits := openBatched(t, 1_000_000)
	ctx := context.Background()
	w := s.Writer()
	created := s.clock.Now()

	w.CreateSession(Session{ID: "s1", AgentID: "claude", AgentName: "Claude Code", Cwd: "/src/app"})
	s.clock.Advance(time.Second)
	w.UpdateSession("s1", ptr("agent-42"), nil)
	w.UpdateSession("s1", nil, ptr("Fix the parser"))
	s.clock.Advance(time.Second)
	w.UpdateSession("s1", nil, nil) // only bumps updated_at
	started := s.clock.Now()
	w.StartTurn(Turn{SessionID: "s1", Turn: 1, Prompt: "fix the parser"})
	w.UpsertEntry(Entry{SessionID: "s1", EntryID: "u1", Turn: 1, Seq: 1, Kind: "user_message",
		Text: "fix the parser", Body: []byte(`{"kind":"user_message"}`)})
	w.Message(Message{SessionID: "s1", Direction: DirectionOut, Method: "session/prompt", JSON: []byte(`{"id":1}`)})
	w.UpsertEntry(Entry{SessionID: "s1", EntryID: "a1", Turn: 1, Seq: 2, Kind: "agent_message", Text: "Looking"})
	w.AppendText("s1", "a1", " at")
	w.Message(Message{SessionID: "s1", Direction: DirectionIn, Method: "session/update", JSON: []byte(`{"n":2}`)})
	w.AppendText("s1", "a1", " the code")
	w.UpsertEntry(Entry{SessionID: "s1", EntryID: "t1", Turn: 1, Seq: 3, Kind: "tool_call", Status: "pending", Title: "Read parser.go"})
	w.UpsertEntry(Entry{SessionID: "s1", EntryID: "t1", Turn: 1, Seq: 3, Kind: "tool_call", Status: "completed",
		Title: "Read parser.go", Text: "package parser", Body: []byte(`{"status":"completed"}`)})
	w.Message(Message{SessionID: "s1", Direction: DirectionIn, Method: "session/update", JSON: []byte(`{"n":3}`)})
	noCommitYet(t, commits)
	flush(t, s.Store)
	if n := nextCommit(t, commits); n != 14 {
		t.Errorf("Flush committed %d ops in its batch, want all 14 in one", n)
	}

	s.clock.Advance(time.Second)
	ended := s.clock.Now()
	w.EndTurn("s1", 1, "end_turn", "", time.Time{})
	w.SetOutcome("s1", "completed")
	flush(t, s.Store)

	sess, turns, entries, err := s.Session(ctx, "s1")
	if err != nil {
		t.Fatal(err)
	}
	want := Session{ID: "s1", AgentID: "claude", AgentName: "Claude Code", AgentSessionID: "agent-42",
		Cwd: "/src/app", Title: "Fix the parser", Outcome: "completed", CreatedAt: created, UpdatedAt: ended}
	if !sessionEqual(sess, want) {
		t.Errorf("session\n got %+v\nwant %+v", sess, want)
	}
	if len(turns) != 1 {
		t.Fatalf("turns = %+v", turns)
	}
	tu := turns[0]
	if tu.Prompt != "fix the parser" || !tu.StartedAt.Equal(started) || !tu.EndedAt.Equal(ended) ||
		tu.StopReason != "end_turn" || tu.Error != "" {
		t.Errorf("turn = %+v, want started %v ended %v", tu, started, ended)
	}
	wantEntries := []struct{ id, status, title, text, body string }{
		{"u1", "", "", "fix the parser", `{"kind":"user_message"}`},
		{"a1", "", "", "Looking at the code", ""},
		{"t1", "completed", "Read parser.go", "package parser", `{"status":"completed"}`},
	}
	if len(entries) != len(wantEntries) {
		t.Fatalf("entries = %+v", entries)
	}
	for i, we := range wantEntries {
		e := entries[i]
		if e.EntryID != we.id || e.Seq != i+1 || e.Turn != 1 || e.Status != we.status || e.Title != we.title ||
			e.Text != we.text || string(e.Body) != we.body {
			t.Errorf("entry %d = %+v, want %+v", i, e, we)
		}
	}
	if entries[1].Body != nil {
		t.Errorf("entry without body read back as %q, want nil", entries[1].Body)
	}

	msgs, err := s.Messages(ctx, "s1")
	if err != nil {
		t.Fatal(err)
	}
	wantMethods := []string{"session/prompt", "session/update", "session/update"}
	if len(msgs) != 3 {
		t.Fatalf("messages = %+v", msgs)
	}
	for i, m := range msgs {
		if m.Method != wantMethods[i] || !m.At.Equal(started) {
			t.Errorf("message %d = %+v", i, m)
		}
	}
	if msgs[0].Direction != DirectionOut || string(msgs[2].JSON) != `{"n":3}` {
		t.Errorf("messages out of order or altered: %+v", msgs)
	}
}

func sessionEqual(a, b Session) bool {
	return a.ID == b.ID && a.AgentID == b.AgentID && a.AgentName == b.AgentName &&
		a.AgentSessionID == b.AgentSessionID && a.Cwd == b.Cwd && a.Title == b.Title &&
		a.Outcome == b.Outcome && a.CreatedAt.Equal(b.CreatedAt) && a.UpdatedAt.Equal(b.UpdatedAt)
}

func TestUpdateSessionNilLeavesValues(t *testing.T) {
	s := openTest(t)
	w := s.Writer()
	w.CreateSession(Session{ID: "s", AgentSessionID: "a-1", Title: "kept title"})
	w.UpdateSession("s", nil, nil)
	w.UpdateSession("s", ptr("a-2"), nil)
	flush(t, s.Store)
	got, _, _, err := s.Session(context.Background(), "s")
	if err != nil || got.Title != "kept title" || got.AgentSessionID != "a-2" {
		t.Errorf("got %+v, %v; want title kept and agent session a-2", got, err)
	}
	w.UpdateSession("s", nil, ptr(""))
	flush(t, s.Store)
	got, _, _, _ = s.Session(context.Background(), "s")
	if got.Title != "" || got.AgentSessionID != "a-2" {
		t.Errorf("got %+v; want empty title set, agent session kept", got)
	}
}

func TestEndTurnAndOutcomeCommitWithoutDelay(t *testing.T) {
	s, commits := openBatched(t, 1_000_000)
	w := s.Writer()
	w.CreateSession(Session{ID: "s"})
	w.StartTurn(Turn{SessionID: "s", Turn: 1, Prompt: "p"})
	w.UpsertEntry(Entry{SessionID: "s", EntryID: "e", Seq: 1, Text: "t"})
	noCommitYet(t, commits)
	w.EndTurn("s", 1, "cancelled", "", time.Time{})
	if n := nextCommit(t, commits); n != 4 {
		t.Errorf("EndTurn's batch had %d ops, want 4", n)
	}
	// Another process sees it without any Flush.
	other := rawDB(t, s.Path())
	var reason string
	var ended sql.NullInt64
	if err := other.QueryRow(`SELECT stop_reason, ended_at FROM turns WHERE session_id = 's'`).Scan(&reason, &ended); err != nil ||
		reason != "cancelled" || !ended.Valid {
		t.Errorf("other connection sees stop_reason %q ended %v (%v)", reason, ended, err)
	}

	w.AppendText("s", "e", "+")
	w.SetOutcome("s", "completed")
	if n := nextCommit(t, commits); n != 2 {
		t.Errorf("SetOutcome's batch had %d ops, want 2", n)
	}
	var outcome string
	if err := other.QueryRow(`SELECT outcome FROM sessions WHERE id = 's'`).Scan(&outcome); err != nil || outcome != "completed" {
		t.Errorf("other connection sees outcome %q (%v)", outcome, err)
	}
}

func TestWriterCommitsAtMaxOps(t *testing.T) {
	s, commits := openBatched(t, 3)
	w := s.Writer()
	w.CreateSession(Session{ID: "s"})
	w.UpsertEntry(Entry{SessionID: "s", EntryID: "1"})
	noCommitYet(t, commits)
	w.UpsertEntry(Entry{SessionID: "s", EntryID: "2"})
	if n := nextCommit(t, commits); n != 3 {
		t.Errorf("batch of %d ops, want 3", n)
	}
	w.UpsertEntry(Entry{SessionID: "s", EntryID: "3"})
	flush(t, s.Store)
	if n := nextCommit(t, commits); n != 1 {
		t.Errorf("batch of %d ops, want 1", n)
	}
}

func TestAppendTextOrderAcrossUpserts(t *testing.T) {
	s := openTest(t, WithBatch(time.Hour, 1_000_000))
	w := s.Writer()
	w.CreateSession(Session{ID: "s"})
	w.UpsertEntry(Entry{SessionID: "s", EntryID: "e", Seq: 1, Text: "A"})
	w.UpsertEntry(Entry{SessionID: "s", EntryID: "f", Seq: 2, Text: "1"})
	w.AppendText("s", "e", "b")
	w.AppendText("s", "f", "2")
	w.AppendText("s", "e", "c")
	w.UpsertEntry(Entry{SessionID: "s", EntryID: "e", Seq: 1, Text: "X"}) // full text replaces
	w.AppendText("s", "e", "y")
	w.Message(Message{SessionID: "s", Direction: DirectionIn, JSON: []byte(`{}`)})
	w.AppendText("s", "f", "3")
	w.AppendText("s", "e", "z")
	flush(t, s.Store)
	_, _, entries, err := s.Session(context.Background(), "s")
	if err != nil || len(entries) != 2 || entries[0].Text != "Xyz" || entries[1].Text != "123" {
		t.Fatalf("entries = %+v, %v; want e=Xyz f=123", entries, err)
	}
	// The index follows the final text: "Xyz" is searchable, the replaced "Abc" is not.
	if hits, err := s.ListSessions(context.Background(), "xyz", 0); err != nil || len(hits) != 1 {
		t.Errorf("search xyz: %v, %v", hits, err)
	}
	if hits, err := s.ListSessions(context.Background(), "abc", 0); err != nil || len(hits) != 0 {
		t.Errorf("search abc (replaced text): %v, %v", hits, err)
	}
}

// BenchmarkWriter measures entry changes (one UpsertEntry then seven AppendText per entry,
// as when streaming a message) from the first call to a Flush that makes them durable.
func BenchmarkWriter(b *testing.B) {
	s := openTest(b)
	w := s.Writer()
	w.CreateSession(Session{ID: "bench"})
	flush(b, s.Store)
	entry := ""
	n := 0
	for ; b.Loop(); n++ {
		if n%8 == 0 {
			entry = "e" + strconv.Itoa(n)
			w.UpsertEntry(Entry{SessionID: "bench", EntryID: entry, Seq: n, Kind: "agent_message",
				Text: "Streaming", Body: []byte(`{"kind":"agent_message"}`)})
		} else {
			w.AppendText("bench", entry, " some more streamed words")
		}
	}
	flush(b, s.Store)
	figure(b, "writer_changes_per_s", float64(n)/b.Elapsed().Seconds(), "changes/s")
}
