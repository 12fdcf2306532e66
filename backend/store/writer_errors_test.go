package store

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestWriterReportsFailedOpsAndKeepsGoing(t *testing.T) {
	s := openTest(t, WithBatch(time.Hour, 1_000_000))
	w := s.Writer()
	w.CreateSession(Session{ID: "s"})
	w.AppendText("s", "missing", "lost")
	w.UpsertEntry(Entry{SessionID: "no-such-session", EntryID: "x"})
	w.UpsertEntry(Entry{SessionID: "s", EntryID: "kept", Text: "kept"})
	err := w.Flush(context.Background())
	if err == nil || !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), `"missing"`) {
		t.Errorf("Flush = %v, want the first failure (append to missing entry)", err)
	}
	errs := s.errs.take()
	if len(errs) != 2 || !strings.Contains(errs[1].Error(), "no-such-session") {
		t.Errorf("reported %v, want the two failed ops", errs)
	}
	_, _, entries, err := s.Session(context.Background(), "s")
	if err != nil || len(entries) != 1 || entries[0].Text != "kept" {
		t.Errorf("good ops of the failed batch: %+v, %v", entries, err)
	}
	w.UpsertEntry(Entry{SessionID: "s", EntryID: "after"})
	flush(t, s.Store) // errors are not sticky

	// A batch that cannot be written at all is reported and dropped; the writer goes on.
	if _, err := s.db.Exec(`PRAGMA query_only = 1`); err != nil { // the pool's only connection
		t.Fatal(err)
	}
	w.UpsertEntry(Entry{SessionID: "s", EntryID: "readonly"})
	if err := w.Flush(context.Background()); err == nil {
		t.Error("Flush on a read-only connection succeeded")
	}
	if len(s.errs.take()) == 0 {
		t.Error("read-only failure was not reported")
	}
	if _, err := s.db.Exec(`PRAGMA query_only = 0`); err != nil {
		t.Fatal(err)
	}
	w.UpsertEntry(Entry{SessionID: "s", EntryID: "recovered"})
	flush(t, s.Store)
	_, _, entries, _ = s.Session(context.Background(), "s")
	if len(entries) != 3 || entries[2].EntryID != "recovered" {
		t.Errorf("after recovery: %+v", entries)
	}
}

func TestFlushHonoursContext(t *testing.T) {
	s := openTest(t)
	tx, err := s.db.BeginTx(context.Background(), &sql.TxOptions{ReadOnly: true}) // holds the only connection
	if err != nil {
		t.Fatal(err)
	}
	s.Writer().CreateSession(Session{ID: "s"})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := s.Writer().Flush(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("Flush with a cancelled context = %v", err)
	}
	tx.Rollback()
	flush(t, s.Store)
}

func TestWriterAfterClose(t *testing.T) {
	s := openTest(t)
	s.Writer().CreateSession(Session{ID: "s"})
	if err := s.Close(); err != nil { // commits the queued op
		t.Fatal(err)
	}
	s.Writer().UpsertEntry(Entry{SessionID: "s", EntryID: "late"})
	if errs := s.errs.take(); len(errs) != 1 || !errors.Is(errs[0], ErrClosed) {
		t.Errorf("op after Close reported %v, want ErrClosed", errs)
	}
	if err := s.Writer().Flush(context.Background()); err != nil {
		t.Errorf("Flush after Close = %v", err)
	}
	if err := s.DeleteSession(context.Background(), "s"); !errors.Is(err, ErrClosed) {
		t.Errorf("DeleteSession after Close = %v", err)
	}
	s2 := openTestAt(t, s.Path())
	if _, _, _, err := s2.Session(context.Background(), "s"); err != nil {
		t.Errorf("op queued before Close was lost: %v", err)
	}
}
