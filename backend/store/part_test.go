package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestSessionPartReadsTheEndFirstThenTheEarlierParts(t *testing.T) {
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
	show := func(p Part) string {
		var ids, turns []string
		for _, e := range p.Entries {
			ids = append(ids, e.EntryID)
			if e.SessionID != "s1" {
				t.Errorf("entry %s has session %q", e.EntryID, e.SessionID)
			}
		}
		for _, tr := range p.Turns {
			turns = append(turns, fmt.Sprint(tr.Turn))
		}
		return fmt.Sprintf("%s from %d of %d, turns %s", strings.Join(ids, ","), p.From, p.Total, strings.Join(turns, ","))
	}
	for _, c := range []struct {
		from, limit int
		want        string
	}{
		{-1, 6, "e6,e7,e8,e9,e10,e11 from 6 of 12, turns 2,3"}, // the end
		{2, 4, "e2,e3,e4,e5 from 2 of 12, turns 1,2"},          // a middle part: only its own turns
		{0, 2, "e0,e1 from 0 of 12, turns 1"},
		{-1, 100, "e0,e1,e2,e3,e4,e5,e6,e7,e8,e9,e10,e11 from 0 of 12, turns 1,2,3"},
		{12, 5, " from 12 of 12, turns 1,2,3"},
	} {
		p, err := s.SessionPart(ctx, "s1", c.from, c.limit)
		if err != nil || p.Session.Title != "long" {
			t.Fatalf("SessionPart(%d, %d): %+v, %v", c.from, c.limit, p.Session, err)
		}
		if got := show(p); got != c.want {
			t.Errorf("SessionPart(%d, %d) = %s, want %s", c.from, c.limit, got, c.want)
		}
	}
	if _, err := s.SessionPart(ctx, "nope", -1, 10); !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "nope") {
		t.Errorf("SessionPart(nope) = %v, want ErrNotFound naming the id", err)
	}
}
