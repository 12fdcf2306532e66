package store

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestJournalRunsReadBackAsMessages: a flood of one method is kept in runs (far fewer rows than
// messages), yet Messages gives every message back as it was sent — its bytes (invalid UTF-8
// too), direction, method and time to the millisecond, in order — a message holding a line break
// stays whole, seqs go on after a run, JournalEnds finds the ends inside runs, and a redaction
// masks a value inside a run without losing a message.
func TestJournalRunsReadBackAsMessages(t *testing.T) {
	s := openTest(t, WithBatch(time.Hour, 100_000))
	w := s.Writer()
	ctx := context.Background()
	w.CreateSession(Session{ID: "a"})
	t0 := time.UnixMilli(1_700_000_000_000)
	var sent []Message
	send := func(dir, method, json string) {
		m := Message{SessionID: "a", Direction: dir, Method: method, JSON: []byte(json), At: t0.Add(time.Duration(len(sent)*7) * time.Millisecond)}
		sent = append(sent, m)
		w.Message(m)
	}
	send(DirectionOut, "initialize", `{"id":0}`)
	for i := range 300 {
		send(DirectionIn, "session/update", fmt.Sprintf(`{"n":%d,"t":"chunk %d"}`, i, i))
		switch i {
		case 100:
			send(DirectionIn, "session/update", "{\"bad\":\"\xff\xfe\"}")
		case 150:
			send(DirectionIn, "session/update", "{\"two\":\n\"lines\"}")
		case 200:
			send(DirectionOut, "fs/read_text_file", `{"id":7,"result":{"content":"s3cret"}}`)
			send(DirectionIn, "session/update", `{"t":"the s3cret again"}`)
		case 250:
			send(DirectionIn, "session/request_permission", `{"id":9}`)
		}
	}
	flush(t, s.Store)
	send(DirectionIn, "session/update", `{"next":"batch"}`)
	flush(t, s.Store)

	got, err := s.Messages(ctx, "a")
	if err != nil {
		t.Fatal(err)
	}
	same := func(got []Message, want []Message) {
		t.Helper()
		if len(got) != len(want) {
			t.Fatalf("%d messages, want %d", len(got), len(want))
		}
		for i := range want {
			g, w := got[i], want[i]
			if g.Direction != w.Direction || g.Method != w.Method || !bytes.Equal(g.JSON, w.JSON) || !g.At.Equal(w.At) {
				t.Fatalf("message %d = %s %s %q %v, want %s %s %q %v", i, g.Direction, g.Method, g.JSON, g.At, w.Direction, w.Method, w.JSON, w.At)
			}
		}
	}
	same(got, sent)
	var rows, last int
	if err := s.db.QueryRow(`SELECT count(*), max(seq + n - 1) FROM messages WHERE session_id = 'a'`).Scan(&rows, &last); err != nil {
		t.Fatal(err)
	}
	if rows > len(sent)/10 || last != len(sent) {
		t.Errorf("%d rows for %d messages, last seq %d: want runs, and seqs 1..%d", rows, len(sent), last, len(sent))
	}

	ends, err := s.JournalEnds(ctx, "a", 2, 3)
	if err != nil {
		t.Fatal(err)
	}
	same(ends, append(append([]Message{}, sent[:2]...), sent[len(sent)-3:]...))

	mask := func(s string) string { return strings.ReplaceAll(s, "s3cret", "••••") }
	if _, _, err := s.Redact(ctx, Redaction{Values: []string{"s3cret"}, Mask: mask}); err != nil {
		t.Fatal(err)
	}
	for i := range sent {
		sent[i].JSON = []byte(mask(string(sent[i].JSON)))
	}
	got, err = s.Messages(ctx, "a")
	if err != nil {
		t.Fatal(err)
	}
	same(got, sent)
}
