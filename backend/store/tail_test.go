package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestSessionTailReadsTheLastEntriesAndTheTurnsTheyBelongTo(t *testing.T) {
	s := openTest(t)
	w := s.Writer()
	w.CreateSession(Session{ID: "s1", Title: "long"})
	for turn := 1; turn <= 3; turn++ {
		w.StartTurn(Turn{SessionID: "s1", Turn: turn})
		for i := range 4 {
			n := (turn-1)*4 + i
			w.UpsertEntry(Entry{SessionID: "s1", EntryID: fmt.Sprintf("e%d", n), Turn: turn, Seq: n, Kind: "agent", Text: fmt.Sprint(n)})
		}
		w.EndTurn("s1", turn, "end_turn", "", s.clock.Now())
	}
	flush(t, s.Store)
	ctx := context.Background()

	sess, turns, entries, earlier, err := s.SessionTail(ctx, "s1", 6)
	if err != nil || sess.Title != "long" {
		t.Fatalf("SessionTail = %+v, %v", sess, err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.EntryID)
		if e.SessionID != "s1" {
			t.Errorf("entry %s has session %q", e.EntryID, e.SessionID)
		}
	}
	if strings.Join(got, ",") != "e6,e7,e8,e9,e10,e11" || earlier != 6 {
		t.Fatalf("tail of 6 = %v with %d earlier, want e6..e11 with 6 earlier", got, earlier)
	}
	if len(turns) != 2 || turns[0].Turn != 2 || turns[1].Turn != 3 {
		t.Fatalf("turns = %+v, want turns 2 and 3 (turn 1 has no entry in the tail)", turns)
	}

	_, turns, entries, earlier, err = s.SessionTail(ctx, "s1", 100)
	if err != nil || len(entries) != 12 || earlier != 0 || len(turns) != 3 {
		t.Fatalf("a tail longer than the session = %d entries, %d earlier, %d turns, %v; want all", len(entries), earlier, len(turns), err)
	}
	if _, _, _, _, err := s.SessionTail(ctx, "nope", 10); !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "nope") {
		t.Errorf("SessionTail(nope) = %v, want ErrNotFound naming the id", err)
	}
}
