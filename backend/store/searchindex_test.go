package store

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"testing"
	"time"
)

// checkIndex fails the test unless entries_fts and pieces_fts match the entries and
// entry_pieces tables exactly (checkFTS) and each query finds the sessions want gives ("" for
// none).
func checkIndex(t *testing.T, s testStore, want map[string]string) {
	t.Helper()
	checkFTS(t, s.db)
	for q, sessions := range want {
		got, err := s.ListSessions(context.Background(), q, 0)
		if err != nil || ids(got) != sessions {
			t.Errorf("search %q = %q, %v; want %q", q, ids(got), err, sessions)
		}
	}
}

func TestSearchIndexFollowsStreamedAndRewrittenEntries(t *testing.T) {
	s := openTest(t)
	w := withEntry(t, s, "s1", "one", "alpha ")
	// Later batches: appends, then a whole rewrite that drops a word, and a new entry created,
	// grown and rewritten within one batch.
	w.AppendText("s1", "a", "bravo ")
	flush(t, s.Store)
	w.AppendText("s1", "a", "charlie ")
	w.UpsertEntry(Entry{SessionID: "s1", EntryID: "a", Kind: "agent", Title: "titled", Text: "bravo charlie delta"})
	w.UpsertEntry(Entry{SessionID: "s1", EntryID: "b", Kind: "agent", Text: "echo "})
	w.AppendText("s1", "b", "foxtrot")
	w.UpsertEntry(Entry{SessionID: "s1", EntryID: "b", Kind: "agent", Text: "golf"})
	w.AppendText("s1", "b", " hotel")
	flush(t, s.Store)
	checkIndex(t, s, map[string]string{"alpha": "", "bravo": "s1", "delta": "s1", "titled": "s1",
		"echo": "", "foxtrot": "", "golf": "s1", "hotel": "s1"})
}

func TestSearchIndexDropsADeletedSessionInTheBatchThatTouchedIt(t *testing.T) {
	s := openTest(t, WithBatch(time.Hour, 1_000)) // one batch, up to the delete's own commit
	w := s.Writer()
	for _, id := range []string{"gone", "kept"} {
		w.CreateSession(Session{ID: id, Title: id})
		w.UpsertEntry(Entry{SessionID: id, EntryID: "old", Kind: "agent", Text: id + "old words"})
		w.UpsertEntry(Entry{SessionID: id, EntryID: "touched", Kind: "agent", Text: id + "before"})
	}
	flush(t, s.Store)
	// One batch: an entry written before is changed, one is new, the untouched one stays as
	// it was; then the session goes, and comes back with a new entry of the same id.
	w.AppendText("gone", "touched", " goneafter")
	w.UpsertEntry(Entry{SessionID: "gone", EntryID: "new", Kind: "agent", Text: "gonenew"})
	w.AppendText("kept", "touched", " keptafter")
	if err := s.DeleteSession(context.Background(), "gone"); err != nil {
		t.Fatal(err)
	}
	checkIndex(t, s, map[string]string{"goneold": "", "gonebefore": "", "goneafter": "", "gonenew": "",
		"keptold": "kept", "keptbefore": "kept", "keptafter": "kept"})

	w.CreateSession(Session{ID: "gone", Title: "back"})
	w.UpsertEntry(Entry{SessionID: "gone", EntryID: "touched", Kind: "agent", Text: "reborn"})
	w.UpsertEntry(Entry{SessionID: "gone", EntryID: "touched", Kind: "agent", Text: "reborn again"})
	flush(t, s.Store)
	checkIndex(t, s, map[string]string{"reborn": "gone", "gonebefore": ""})
}

func TestSearchIndexSurvivesABatchRedoneOpByOp(t *testing.T) {
	s := openTest(t, WithBatch(time.Hour, 1_000))
	w := withEntry(t, s, "s1", "one", "first")
	// The append to a missing entry fails, so the batch is redone with a savepoint per op; the
	// writes around it must reach the index once, as if the batch had gone through at once.
	w.AppendText("s1", "a", " second")
	w.AppendText("s1", "missing", "lost")
	w.UpsertEntry(Entry{SessionID: "s1", EntryID: "b", Kind: "agent", Text: "third"})
	w.UpsertEntry(Entry{SessionID: "nosuchsession", EntryID: "c", Kind: "agent", Text: "orphan"})
	if err := w.Flush(context.Background()); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Flush = %v, want the failed append's ErrNotFound", err)
	}
	if errs := s.errs.take(); len(errs) != 2 {
		t.Errorf("reported %d errors, want the append's and the orphan's: %v", len(errs), errs)
	}
	checkIndex(t, s, map[string]string{"first": "s1", "second": "s1", "third": "s1", "lost": "", "orphan": ""})
}

// TestSearchIndexAfterTheTriggersWent opens a file written with the triggers (version 3): what
// they indexed is then changed and deleted by the writer, which must find it as they left it.
func TestSearchIndexAfterTheTriggersWent(t *testing.T) {
	ctx := context.Background()
	path, db := dbAtVersion(t, 3)
	if _, err := db.Exec(`INSERT INTO sessions (id, title, created_at, updated_at) VALUES ('old', 'Old', 1, 2), ('gone', 'Gone', 1, 2);
		INSERT INTO entries (session_id, entry_id, seq, text) VALUES ('old', 'e1', 1, 'tokenizer'), ('gone', 'e1', 1, 'vanishing');
		UPDATE entries SET text = 'refactoring the tokenizer' WHERE session_id = 'old'`); err != nil {
		t.Fatal(err)
	}
	db.Close()

	s := openTestAt(t, path)
	s.Writer().AppendText("old", "e1", " and the lexer")
	if err := s.DeleteSession(ctx, "gone"); err != nil {
		t.Fatal(err)
	}
	checkIndex(t, s, map[string]string{"refactoring": "old", "lexer": "old", "vanishing": ""})
}

// checkFTS fails the test unless each writer-kept index matches its table exactly: FTS5's
// integrity-check with rank 1 compares an index with its external content.
func checkFTS(t testing.TB, db *sql.DB) {
	t.Helper()
	for _, fts := range []string{"entries_fts", "pieces_fts"} {
		if _, err := db.Exec(`INSERT INTO ` + fts + ` (` + fts + `, rank) VALUES ('integrity-check', 1)`); err != nil {
			t.Errorf("%s integrity-check: %v", fts, err)
		}
	}
}

// TestAnEntryNewInABatchLosesThePiecesTheBatchGaveIt: an entry created, grown past a piece and
// rewritten whole within one batch has no pieces left, in the table and in the index (an upsert
// skips looking for pieces only for an entry new in the batch that gained none). The ops run as
// one batch as they are: coalesce would fold the append into the first upsert.
func TestAnEntryNewInABatchLosesThePiecesTheBatchGaveIt(t *testing.T) {
	s := batchAsItIs(t,
		&upsertEntryOp{e: Entry{SessionID: "s1", EntryID: "a", Kind: "agent", Text: "start "}},
		&appendOp{sessionID: "s1", entryID: "a", parts: []string{strings.Repeat("piecemeal ", pieceBytes/5)}},
		&upsertEntryOp{e: Entry{SessionID: "s1", EntryID: "a", Kind: "agent", Text: "whole"}})
	var pieces int
	if err := s.db.QueryRow(`SELECT count(*) FROM entry_pieces`).Scan(&pieces); err != nil || pieces != 0 {
		t.Fatalf("%d pieces left, %v; want none", pieces, err)
	}
	checkIndex(t, s, map[string]string{"whole": "s1", "piecemeal": "", "start": ""})
}

// TestAnEntryUpsertedThenAppendedInABatchIsIndexedAsItEnds: the index takes an entry's text as
// the batch left it when the batch both upserted it and appended to it (kept in memory rather
// than read back).
func TestAnEntryUpsertedThenAppendedInABatchIsIndexedAsItEnds(t *testing.T) {
	s := batchAsItIs(t,
		&upsertEntryOp{e: Entry{SessionID: "s1", EntryID: "a", Kind: "agent", Title: "heading", Text: "alpha "}},
		&appendOp{sessionID: "s1", entryID: "a", parts: []string{"bravo"}})
	checkIndex(t, s, map[string]string{"alpha": "s1", "bravo": "s1", "heading": "s1"})
}

// batchAsItIs opens a store with session s1 and runs ops on it as one batch, as they are (not
// coalesced, which would fold appends into an upsert of the same entry).
func batchAsItIs(t *testing.T, ops ...op) testStore {
	t.Helper()
	s := openTest(t)
	w := s.Writer()
	w.CreateSession(Session{ID: "s1"})
	flush(t, s.Store)
	if failed, err := w.runBatch(ops, nil); err != nil {
		t.Fatalf("batch failed at %v: %v", failed, err)
	}
	return s
}

// plantEntryOp inserts an entry row behind the batch's back (no op of the writer does): it
// makes the batch's guess that an entry is new wrong.
type plantEntryOp struct{ session, entry, text string }

func (o *plantEntryOp) String() string { return "plant entry " + o.entry }

func (o *plantEntryOp) exec(ctx context.Context, b *batchTx) error {
	_, err := b.tx.ExecContext(ctx, `INSERT INTO entries (session_id, entry_id, text) VALUES (?, ?, ?)`,
		o.session, o.entry, o.text)
	return err
}

// TestAnUpsertTakenForNewUpdatesTheEntryThatIsThere: an upsert of an entry the batch takes for
// new (not there before the batch, not upserted by it) is a plain insert; if the entry is there
// all the same, the insert changes nothing and the upsert updates the row, in the index too.
func TestAnUpsertTakenForNewUpdatesTheEntryThatIsThere(t *testing.T) {
	s := batchAsItIs(t,
		&plantEntryOp{session: "s1", entry: "a", text: "planted"},
		&upsertEntryOp{e: Entry{SessionID: "s1", EntryID: "a", Kind: "agent", Text: "upserted"}})
	var n int
	var text string
	if err := s.db.QueryRow(`SELECT count(*), max(text) FROM entries WHERE session_id = 's1'`).Scan(&n, &text); err != nil ||
		n != 1 || text != "upserted" {
		t.Fatalf("%d rows, text %q, %v; want the one row, upserted", n, text, err)
	}
	checkIndex(t, s, map[string]string{"upserted": "s1"})
}
