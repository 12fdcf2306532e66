package store

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

const (
	clearValue = "Zq7xSecretQ42v" // one token: the index would keep it as a term
	hidden     = "••••••"
)

var hide = strings.NewReplacer(clearValue, hidden).Replace

// writeLeakyHistory writes, as versions before Redact did, a session that quotes clearValue in
// every column that keeps text.
func writeLeakyHistory(t *testing.T, s testStore) {
	t.Helper()
	w := s.Writer()
	w.CreateSession(Session{ID: "s1", Title: "deploy with " + clearValue})
	w.StartTurn(Turn{SessionID: "s1", Turn: 1, Prompt: "use " + clearValue})
	w.UpsertEntry(Entry{SessionID: "s1", EntryID: "a", Kind: "agent", Text: "your key is Zq7x"})
	flush(t, s.Store)
	w.AppendText("s1", "a", "SecretQ42v, kept") // the value lands whole only in the table
	body, _ := json.Marshal(map[string]string{"title": "curl " + clearValue})
	w.UpsertEntry(Entry{SessionID: "s1", EntryID: "t", Kind: "tool", Title: "curl " + clearValue, Text: "out " + clearValue, Body: body})
	w.RequestPermission(Permission{SessionID: "s1", RequestID: "1", Title: "run with " + clearValue,
		Options: json.RawMessage(`[{"id":"a","name":"allow ` + clearValue + `"}]`)})
	w.Message(Message{SessionID: "s1", Direction: "in", Method: "x", JSON: []byte(`{"token":"` + clearValue + `"}`)})
	w.EndTurn("s1", 1, "error", "failed for "+clearValue, time.Time{})
	w.SetReceipt("s1", 1, []byte(`{"stopReason":"error","commands":[{"command":"curl -u `+clearValue+`"}]}`))
	// A long streamed reply: the value lands in one of its pieces (pieces.go), not in entries.
	w.UpsertEntry(Entry{SessionID: "s1", EntryID: "long", Kind: "agent"})
	flush(t, s.Store)
	w.AppendText("s1", "long", strings.Repeat("filler ", 6000))
	flush(t, s.Store)
	w.AppendText("s1", "long", "then "+clearValue+" again")
	w.CreateSession(Session{ID: "s2", Title: "unrelated"})
	w.UpsertEntry(Entry{SessionID: "s2", EntryID: "b", Kind: "agent", Text: "nothing secret here"})
	flush(t, s.Store)
}

// An older history with a value in clear everywhere is masked in one pass: its tables, its
// search indexes (still consistent, still finding the rest), and the file's bytes. A named
// pass runs once.
func TestRedactMasksEveryTextColumnAndTheIndexOnce(t *testing.T) {
	s := openTest(t)
	writeLeakyHistory(t, s)
	ctx := context.Background()
	if got, _ := s.ListSessions(ctx, clearValue, 0); ids(got) != "s1" {
		t.Fatalf("before: a search for the value found %q; the test needs it indexed", ids(got))
	}
	if done, err := s.Redacted(ctx, "pass"); done || err != nil {
		t.Fatalf("Redacted before the pass: %v, %v", done, err)
	}
	n, ran, err := s.Redact(ctx, Redaction{Values: []string{clearValue}, Mask: hide, Once: "pass"})
	if err != nil || !ran || n != 7 { // s1, its turn, two entries, a piece, the permission, the message
		t.Fatalf("Redact: %d rows, ran %v, %v; want 7 rows", n, ran, err)
	}
	checkIndex(t, s, map[string]string{clearValue: "", "Zq7x": "", "kept": "s1", "curl": "s1", "deploy": "s1", "secret": "s2"})
	var title, prompt, turnErr, text string
	if err := s.db.QueryRow(`SELECT s.title, t.prompt, t.error, e.text FROM sessions s JOIN turns t ON t.session_id = s.id
		JOIN entries e ON e.session_id = s.id AND e.entry_id = 'a'`).Scan(&title, &prompt, &turnErr, &text); err != nil {
		t.Fatal(err)
	}
	if title != "deploy with "+hidden || prompt != "use "+hidden || turnErr != "failed for "+hidden || text != "your key is "+hidden+", kept" {
		t.Fatalf("masked rows: %q %q %q %q", title, prompt, turnErr, text)
	}
	if got := secretCells(t, s); got != 0 {
		t.Fatalf("%d cells still hold the value", got)
	}

	// Once: a second pass of that name does nothing, not even to a row written since.
	s.Writer().CreateSession(Session{ID: "s3", Title: "later " + clearValue})
	flush(t, s.Store)
	if n, ran, err := s.Redact(ctx, Redaction{Values: []string{clearValue}, Mask: hide, Once: "pass"}); n != 0 || ran || err != nil {
		t.Fatalf("the pass ran again: %d rows, ran %v, %v", n, ran, err)
	}
	if done, err := s.Redacted(ctx, "pass"); !done || err != nil {
		t.Fatalf("Redacted after the pass: %v, %v", done, err)
	}
	// A pass with nothing to find is recorded all the same.
	if n, ran, err := s.Redact(ctx, Redaction{Mask: hide, Once: "empty"}); n != 0 || !ran || err != nil {
		t.Fatalf("a pass without values: %d rows, ran %v, %v", n, ran, err)
	}
	if done, err := s.Redacted(ctx, "empty"); !done || err != nil {
		t.Fatalf("Redacted after a pass without values: %v, %v", done, err)
	}
	// An unnamed pass runs each time.
	if n, ran, err := s.Redact(ctx, Redaction{Values: []string{clearValue}, Mask: hide}); n != 1 || !ran || err != nil {
		t.Fatalf("an unnamed pass: %d rows, ran %v, %v; want the later session", n, ran, err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{s.path, s.path + "-wal"} {
		raw, err := os.ReadFile(name)
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		if bytes.Contains(bytes.ToLower(raw), []byte(strings.ToLower(clearValue))) {
			t.Errorf("%s still holds the value in its bytes", name)
		}
	}
}

// secretCells counts the cells of every table, the search indexes' own tables included, that
// hold clearValue in any letter case.
func secretCells(t *testing.T, s testStore) int {
	t.Helper()
	return cellsHolding(t, s, clearValue)
}

// cellsHolding counts the cells of every table, the search indexes' own tables included, that
// hold needle in any letter case.
func cellsHolding(t *testing.T, s testStore, needle string) int {
	t.Helper()
	rows, err := s.db.Query(`SELECT m.name, c.name FROM sqlite_schema m JOIN pragma_table_info(m.name) c
		WHERE m.type = 'table' AND m.sql NOT LIKE 'CREATE VIRTUAL%'`)
	if err != nil {
		t.Fatal(err)
	}
	var cols [][2]string
	for rows.Next() {
		var c [2]string
		if err := rows.Scan(&c[0], &c[1]); err != nil {
			t.Fatal(err)
		}
		cols = append(cols, c)
	}
	rows.Close()
	n := 0
	for _, c := range cols {
		var hits int
		if err := s.db.QueryRow(`SELECT count(*) FROM "`+c[0]+`" WHERE instr(lower(CAST("`+c[1]+`" AS TEXT)), ?) > 0`,
			strings.ToLower(needle)).Scan(&hits); err != nil {
			t.Fatal(err)
		}
		if hits > 0 {
			t.Logf("%s.%s: %d", c[0], c[1], hits)
		}
		n += hits
	}
	return n
}

// Redact runs between the writer's batches: a reply streamed while passes run loses no text,
// ends masked whole, and the index stays consistent with it.
func TestRedactWhileTheWriterStreams(t *testing.T) {
	s := openTest(t)
	w := withEntry(t, s, "s1", "stream", "start ")
	const chunks = 50
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range chunks {
			w.AppendText("s1", "a", fmt.Sprintf("w%d %s ", i, clearValue))
			if i%10 == 0 {
				_ = w.Flush(context.Background()) // let batches interleave with the passes
			}
		}
	}()
	passes := 0
	for running := true; running; passes++ {
		select {
		case <-done:
			running = false
		default:
		}
		if _, _, err := s.Redact(context.Background(), Redaction{Values: []string{clearValue}, Mask: hide}); err != nil {
			t.Fatal(err)
		}
	}
	flush(t, s.Store)
	if _, _, err := s.Redact(context.Background(), Redaction{Values: []string{clearValue}, Mask: hide}); err != nil {
		t.Fatal(err)
	}
	var text string
	if err := s.db.QueryRow(`SELECT text FROM entries WHERE entry_id = 'a'`).Scan(&text); err != nil {
		t.Fatal(err)
	}
	var want strings.Builder
	want.WriteString("start ")
	for i := range chunks {
		fmt.Fprintf(&want, "w%d %s ", i, hidden)
	}
	if text != want.String() {
		t.Fatalf("after %d passes the text is\n%q\nwant\n%q", passes, text, want.String())
	}
	checkIndex(t, s, map[string]string{clearValue: "", "w49": "s1", "start": "s1"})
}
