package store

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestJournalKeepsEachSessionsOrderAcrossOneBatch(t *testing.T) {
	s := openTest(t, WithBatch(time.Hour, 10_000)) // everything below in one batch
	w := s.Writer()
	ctx := context.Background()
	for _, id := range []string{"a", "b", "gone"} {
		w.CreateSession(Session{ID: id})
	}
	flush(t, s.Store)
	w.Message(Message{SessionID: "a", Direction: DirectionIn, Method: "before", JSON: []byte(`{"n":0}`)})
	flush(t, s.Store)
	// 150 messages each (statements of 64, 8 and 1 rows), interleaved with entry writes and
	// with a session deleted in the middle of the batch.
	for i := 1; i <= 150; i++ {
		for _, id := range []string{"a", "b", "gone"} {
			w.Message(Message{SessionID: id, Direction: DirectionIn, Method: "m" + strconv.Itoa(i),
				JSON: fmt.Appendf(nil, `{"n":%d}`, i)})
		}
		w.UpsertEntry(Entry{SessionID: "a", EntryID: "e" + strconv.Itoa(i%7), Kind: "agent", Text: "x"})
	}
	if err := s.DeleteSession(ctx, "gone"); err != nil {
		t.Fatal(err)
	}
	w.CreateSession(Session{ID: "gone"})
	w.Message(Message{SessionID: "gone", Direction: DirectionOut, Method: "again", JSON: []byte(`{}`)})
	flush(t, s.Store)

	for id, want := range map[string]int{"a": 151, "b": 150} {
		msgs, err := s.Messages(ctx, id)
		if err != nil || len(msgs) != want {
			t.Fatalf("Messages(%s) = %d, %v; want %d", id, len(msgs), err, want)
		}
		for i, m := range msgs {
			n := i // a's first message is the one before the batch
			if id == "b" {
				n = i + 1
			}
			method := "m" + strconv.Itoa(n)
			if n == 0 {
				method = "before"
			}
			if m.Method != method || string(m.JSON) != `{"n":`+strconv.Itoa(n)+`}` {
				t.Fatalf("Messages(%s)[%d] = %s %s, want message %d", id, i, m.Method, m.JSON, n)
			}
		}
	}
	var seqs string
	if err := s.db.QueryRow(`SELECT group_concat(seq) FROM messages WHERE session_id = 'a' AND seq > 148`).Scan(&seqs); err != nil || seqs != "149,150,151" {
		t.Errorf("seqs of a = %q, %v; want 149,150,151 (one after the other)", seqs, err)
	}
	if msgs, err := s.Messages(ctx, "gone"); err != nil || len(msgs) != 1 || msgs[0].Method != "again" {
		t.Errorf("Messages(gone) after its delete = %+v, %v; want only the later one", msgs, err)
	}
	if err := s.db.QueryRow(`SELECT group_concat(seq) FROM messages WHERE session_id = 'gone'`).Scan(&seqs); err != nil || seqs != "1" {
		t.Errorf("seq of the new session's first message = %q, %v; want 1", seqs, err)
	}
}

func TestJournalRefusesAnUnknownDirectionAtOnce(t *testing.T) {
	s := openTest(t)
	w := s.Writer()
	w.CreateSession(Session{ID: "s"})
	w.Message(Message{SessionID: "s", Direction: "sideways", Method: "odd", JSON: []byte(`{}`)})
	errs := s.errs.take()
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), `direction "sideways"`) || !strings.Contains(errs[0].Error(), `"odd"`) {
		t.Fatalf("reported %v, want one error naming the direction and the message", errs)
	}
	w.Message(Message{SessionID: "s", Direction: DirectionIn, Method: "fine", JSON: []byte(`{}`)})
	flush(t, s.Store)
	if msgs, err := s.Messages(context.Background(), "s"); err != nil || len(msgs) != 1 || msgs[0].Method != "fine" {
		t.Errorf("Messages = %+v, %v; want only the good one", msgs, err)
	}
}
