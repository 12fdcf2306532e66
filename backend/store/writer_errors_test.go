package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
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
	_, _, entries, _ = s.Session(context.Background(), "s")
	if len(entries) != 2 || entries[1].EntryID != "after" {
		t.Errorf("after a failed op: %+v", entries)
	}
}

// TestWriterSurvivesStorageFailures makes the database unwritable under a running writer
// (disk full: max_page_count at the current size, which yields SQLITE_FULL as a full disk
// does; read-only: query_only), then writable again.
func TestWriterSurvivesStorageFailures(t *testing.T) {
	for _, tc := range []struct {
		name       string
		fail, heal string // pragmas; %d is the current page count
		cause      string // in the reported error
	}{
		{"disk full", "PRAGMA max_page_count = %d", "PRAGMA max_page_count = 1073741823", "database or disk is full"},
		{"read-only", "PRAGMA query_only = 1", "PRAGMA query_only = 0", "attempt to write a readonly database"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, commits := openBatched(t, 1_000_000)
			ctx := context.Background()
			w := s.Writer()
			w.CreateSession(Session{ID: "s"})
			w.StartTurn(Turn{SessionID: "s", Turn: 1})
			w.UpsertEntry(Entry{SessionID: "s", EntryID: "before", Seq: 1, Text: "kept"})
			flush(t, s.Store)
			nextCommit(t, commits)
			onlyConn(t, s.Store, tc.fail)

			big := strings.Repeat("a long tool output that needs new pages ", 3000)
			for i := range 3 { // each batch needs room: 120 KB of text
				w.UpsertEntry(Entry{SessionID: "s", EntryID: "lost-" + strconv.Itoa(i), Seq: 2 + i, Text: big})
				w.AppendText("s", "lost-"+strconv.Itoa(i), "more")
				w.Message(Message{SessionID: "s", Direction: DirectionIn, JSON: []byte(`{}`)})
				err := w.Flush(ctx)
				if err == nil {
					t.Fatalf("batch %d: Flush succeeded on an unwritable database", i)
				}
				// One attempt per batch: one commit and one report, then the writer is idle.
				if n := nextCommit(t, commits); n != 3 {
					t.Errorf("batch %d: the commit hook saw %d ops, want the batch of 3", i, n)
				}
				noCommitYet(t, commits)
				errs := s.errs.take()
				if len(errs) != 1 {
					t.Fatalf("batch %d: %d errors reported, want 1 per batch: %v", i, len(errs), errs)
				}
				msg := errs[0].Error()
				for _, want := range []string{"batch of 3 writes lost", `entry "lost-` + strconv.Itoa(i) + `"`, tc.cause} {
					if !strings.Contains(msg, want) {
						t.Errorf("batch %d: reported %q, want it to say %q", i, msg, want)
					}
				}
				if i == 0 {
					t.Logf("reported: %s", msg)
				}
				if err.Error() != msg {
					t.Errorf("batch %d: Flush returned %q, reported %q", i, err, msg)
				}
			}
			onlyConn(t, s.Store, tc.heal)
			w.UpsertEntry(Entry{SessionID: "s", EntryID: "after", Seq: 9, Text: big})
			w.EndTurn("s", 1, "end_turn", "", time.Time{})
			flush(t, s.Store)
			_, turns, entries, err := s.Session(ctx, "s")
			if err != nil || len(entries) != 2 || entries[0].EntryID != "before" || entries[1].EntryID != "after" ||
				turns[0].StopReason != "end_turn" {
				t.Errorf("after recovery: entries %+v, turns %+v, %v; want before, after and the ended turn", entries, turns, err)
			}
			if msgs, err := s.Messages(ctx, "s"); err != nil || len(msgs) != 0 {
				t.Errorf("lost messages were written: %d, %v", len(msgs), err)
			}
			checkIntegrity(t, s.db)
		})
	}
}

// onlyConn runs a pragma on the pool's only connection, the one the writer uses; a %d in it
// is replaced by the current page count.
func onlyConn(t *testing.T, s *Store, pragma string) {
	t.Helper()
	if strings.Contains(pragma, "%d") {
		var pages int
		if err := s.db.QueryRow(`PRAGMA page_count`).Scan(&pages); err != nil {
			t.Fatal(err)
		}
		pragma = fmt.Sprintf(pragma, pages)
	}
	if _, err := s.db.Exec(pragma); err != nil {
		t.Fatalf("%s: %v", pragma, err)
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
