package store

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestSaveCopyPutsBackWhatAFullDiskLost loses batches to a full disk, heals the disk and saves
// the session's copy: the database then holds the whole session, and ops queued after the
// copy apply on top of it.
func TestSaveCopyPutsBackWhatAFullDiskLost(t *testing.T) {
	s := openTest(t, WithBatch(time.Hour, 1_000_000))
	ctx := context.Background()
	w := s.Writer()
	w.CreateSession(Session{ID: "s", AgentName: "Demo", Title: "first prompt"})
	w.StartTurn(Turn{SessionID: "s", Turn: 1, Prompt: "first prompt"})
	w.UpsertEntry(Entry{SessionID: "s", EntryID: "u1", Turn: 1, Seq: 1, Kind: "user", Text: "first prompt"})
	flush(t, s.Store)
	if err := s.RenameSession(ctx, "s", "named by the user"); err != nil {
		t.Fatal(err)
	}

	onlyConn(t, s.Store, "PRAGMA max_page_count = %d")
	big := strings.Repeat("output that needs new pages ", 5000)
	w.UpsertEntry(Entry{SessionID: "s", EntryID: "a1", Turn: 1, Seq: 2, Kind: "agent", Text: big})
	w.EndTurn("s", 1, "end_turn", "", time.Time{})
	w.StartTurn(Turn{SessionID: "s", Turn: 2, Prompt: "second"})
	// The turn end is committed at once, so its failed batch may be over before Flush is
	// called, and the start of turn 2 fits in the pages there are: Flush may then return nil.
	// The error handler hears of the lost batch either way.
	_ = w.Flush(ctx)
	if errs := s.errs.take(); len(errs) == 0 {
		t.Fatal("no error reported for the lost batch")
	}

	onlyConn(t, s.Store, "PRAGMA max_page_count = 1073741823")
	ended := s.clock.Now()
	w.SaveCopy(SessionCopy{
		Session:   Session{ID: "s", AgentName: "Demo", Title: "agent's title", Outcome: "running"},
		KeepTitle: true,
		Turns: []Turn{{Turn: 1, Prompt: "first prompt", EndedAt: ended, StopReason: "end_turn"},
			{Turn: 2, Prompt: "second"}},
		Entries: []Entry{
			{EntryID: "u1", Turn: 1, Seq: 1, Kind: "user", Text: "first prompt"},
			{EntryID: "a1", Turn: 1, Seq: 2, Kind: "agent", Text: big},
			{EntryID: "u2", Turn: 2, Seq: 3, Kind: "user", Text: "second"},
			{EntryID: "a2", Turn: 2, Seq: 4, Kind: "agent", Text: "stream"},
		},
	})
	w.AppendText("s", "a2", "ing on") // queued after the copy: applies on top
	flush(t, s.Store)

	sess, turns, entries, err := s.Session(ctx, "s")
	if err != nil {
		t.Fatal(err)
	}
	if sess.Title != "named by the user" {
		t.Errorf("title %q: KeepTitle must keep the user's name", sess.Title)
	}
	if len(turns) != 2 || turns[0].StopReason != "end_turn" || turns[0].EndedAt.IsZero() ||
		turns[1].Prompt != "second" || !turns[1].EndedAt.IsZero() {
		t.Errorf("turns %+v: want turn 1 ended end_turn and turn 2 open", turns)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.EntryID+"="+e.Text[:min(len(e.Text), 12)])
	}
	if strings.Join(got, " ") != "u1=first prompt a1=output that  u2=second a2=streaming on" {
		t.Errorf("entries %v", got)
	}
}

// TestSaveCopyCreatesAMissingSessionAndKeepsEndedTurns: the copy of a session whose creation
// was lost inserts it; a copy never reopens or rewrites a turn the database has ended.
func TestSaveCopyCreatesAMissingSessionAndKeepsEndedTurns(t *testing.T) {
	s := openTest(t)
	ctx := context.Background()
	w := s.Writer()
	w.SaveCopy(SessionCopy{Session: Session{ID: "new", AgentName: "Demo", Title: "from the copy", Outcome: "end_turn"},
		Turns:   []Turn{{Turn: 1, Prompt: "p", EndedAt: s.clock.Now(), StopReason: "end_turn"}},
		Entries: []Entry{{EntryID: "u1", Turn: 1, Seq: 1, Kind: "user", Text: "p"}}})
	flush(t, s.Store)
	w.SaveCopy(SessionCopy{Session: Session{ID: "new", Title: "renamed by the agent", Outcome: "cancelled"},
		Turns: []Turn{{Turn: 1, Prompt: "p", EndedAt: s.clock.Now().Add(time.Hour), StopReason: "cancelled"}}})
	flush(t, s.Store)
	sess, turns, entries, err := s.Session(ctx, "new")
	if err != nil {
		t.Fatal(err)
	}
	if sess.Title != "renamed by the agent" || sess.Outcome != "cancelled" || sess.AgentName != "Demo" {
		t.Errorf("session %+v", sess)
	}
	if len(turns) != 1 || turns[0].StopReason != "end_turn" || !turns[0].EndedAt.Equal(s.clock.Now()) {
		t.Errorf("turns %+v: the ended turn must stay as it was", turns)
	}
	if len(entries) != 1 {
		t.Errorf("entries %+v: the second copy has none, the first one's stay", entries)
	}
}
