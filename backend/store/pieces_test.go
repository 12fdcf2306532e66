package store

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// pieceStats returns how many pieces the database holds and the longest text of a piece or of
// an entries row, in bytes.
func pieceStats(t testing.TB, s testStore) (pieces, longest int) {
	t.Helper()
	if err := s.db.QueryRow(`SELECT (SELECT count(*) FROM entry_pieces),
		max((SELECT coalesce(max(octet_length(text)), 0) FROM entry_pieces),
			(SELECT coalesce(max(octet_length(text)), 0) FROM entries))`).Scan(&pieces, &longest); err != nil {
		t.Fatal(err)
	}
	return pieces, longest
}

// entryTextOf reads one entry's whole text as Session returns it.
func entryTextOf(t testing.TB, s testStore, session, entry string) string {
	t.Helper()
	_, _, entries, err := s.Session(context.Background(), session)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.EntryID == entry {
			return e.Text
		}
	}
	t.Fatalf("session %q has no entry %q", session, entry)
	return ""
}

func TestStreamedTextGrowsInBoundedPieces(t *testing.T) {
	s := openTest(t, WithBatch(time.Hour, 500))
	w := s.Writer()
	c := newCorpus(7)
	w.CreateSession(Session{ID: "s", Title: "streamed"})
	w.UpsertEntry(Entry{SessionID: "s", EntryID: "m", Seq: 1, Kind: "agent_message", Text: "opening "})
	want := "opening "
	stream := func(chunks int, marker string) {
		for i := range chunks {
			chunk := c.text(8) + " "
			switch {
			case i == chunks/2:
				chunk += "quokkamiddle "
			case i%97 == 0: // a word cut between two chunks, and maybe two batches or pieces
				chunk += "tokeni"
			case i%97 == 1:
				chunk = "zation " + chunk
			}
			if i == chunks-1 {
				chunk += marker
			}
			w.AppendText("s", "m", chunk)
			want += chunk
		}
	}
	stream(8_000, "zanzibarlast") // about 400 KB: several pieces, many batches
	flush(t, s.Store)

	if got := entryTextOf(t, s, "s", "m"); got != want {
		t.Fatalf("the streamed text reads back as %d bytes, want %d (equal: %v)", len(got), len(want), got == want)
	}
	p, err := s.SessionPart(context.Background(), "s", 0, 10)
	if err != nil || len(p.Entries) != 1 || p.Entries[0].Text != want {
		t.Fatalf("SessionPart: %d entries, %v; want the whole text", len(p.Entries), err)
	}
	pieces, longest := pieceStats(t, s)
	if pieces < 4 || longest > maxPieceBytes {
		t.Errorf("%d pieces, the longest of %d bytes; want several, each at most %d and a word", pieces, longest, pieceBytes)
	}
	var splitWords int // pieces that do not end after a space
	if err := s.db.QueryRow(`SELECT count(*) FROM entry_pieces WHERE substr(text, -1) != ' '
		AND id != (SELECT max(id) FROM entry_pieces)`).Scan(&splitWords); err != nil || splitWords != 0 {
		t.Errorf("%d pieces split a word, %v", splitWords, err)
	}
	checkIndex(t, s, map[string]string{"zanzibarlast": "s", "quokkamiddle": "s", "opening": "s",
		"tokenization": "s", "zation": ""})
	hits, err := s.ListSessions(context.Background(), "zanzibarlast", 0)
	if err != nil || len(hits) != 1 || !strings.Contains(hits[0].Snippet, "[[zanzibarlast]]") {
		t.Errorf("search in the last piece: %+v, %v; want a snippet with [[zanzibarlast]]", hits, err)
	}

	// An upsert writes the whole text back to entries.text and drops the pieces.
	w.UpsertEntry(Entry{SessionID: "s", EntryID: "m", Seq: 1, Kind: "agent_message", Text: "replaced whole"})
	flush(t, s.Store)
	if got := entryTextOf(t, s, "s", "m"); got != "replaced whole" {
		t.Errorf("after the upsert the text is %d bytes, want %q", len(got), "replaced whole")
	}
	if pieces, _ := pieceStats(t, s); pieces != 0 {
		t.Errorf("%d pieces left after the upsert", pieces)
	}
	checkIndex(t, s, map[string]string{"zanzibarlast": "", "quokkamiddle": "", "replaced": "s"})

	// Pieces go with their session, and so do their index rows, in the batch that made them too.
	want = "replaced whole"
	stream(4_000, "zanzibaragain")
	if err := s.DeleteSession(context.Background(), "s"); err != nil {
		t.Fatal(err)
	}
	if pieces, _ := pieceStats(t, s); pieces != 0 {
		t.Errorf("%d pieces left after DeleteSession", pieces)
	}
	checkIndex(t, s, map[string]string{"zanzibaragain": "", "replaced": ""})
}

func TestPiecesSurviveABatchRedoneOpByOp(t *testing.T) {
	s := openTest(t, WithBatch(time.Hour, 1_000))
	w := withEntry(t, s, "s", "one", "first ")
	big := strings.Repeat("filler words ", 4_000) // 52 KB
	w.AppendText("s", "a", big+"alphapiece ")
	w.AppendText("s", "missing", "lost")
	w.UpsertEntry(Entry{SessionID: "s", EntryID: "b", Kind: "agent", Text: "other"})
	w.AppendText("s", "a", big+"bravopiece ")
	if err := w.Flush(context.Background()); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Flush = %v, want the failed append's ErrNotFound", err)
	}
	if errs := s.errs.take(); len(errs) != 1 {
		t.Errorf("reported %d errors, want the append's: %v", len(errs), errs)
	}
	if got, want := entryTextOf(t, s, "s", "a"), "first "+big+"alphapiece "+big+"bravopiece "; got != want {
		t.Errorf("text is %d bytes, want %d", len(got), len(want))
	}
	if pieces, _ := pieceStats(t, s); pieces == 0 {
		t.Error("no piece: the test proves nothing")
	}
	checkIndex(t, s, map[string]string{"alphapiece": "s", "bravopiece": "s", "lost": ""})
}

// TestTextPiecesMigration opens a file from before pieces (version 4): its entries read as
// they were, and streaming into one of them starts pieces.
func TestTextPiecesMigration(t *testing.T) {
	path, db := dbAtVersion(t, 4)
	if _, err := db.Exec(`INSERT INTO sessions (id, title, created_at, updated_at) VALUES ('old', 'Old', 1, 2);
		INSERT INTO entries (session_id, entry_id, seq, text) VALUES ('old', 'e1', 1, 'saved before pieces ');
		INSERT INTO entries_fts (rowid, title, text) SELECT id, title, text FROM entries`); err != nil {
		t.Fatal(err)
	}
	db.Close()

	s := openTestAt(t, path)
	if got := entryTextOf(t, s, "old", "e1"); got != "saved before pieces " {
		t.Fatalf("old entry reads %q", got)
	}
	more := strings.Repeat("streamed after the upgrade ", 5_000) // 135 KB
	s.Writer().AppendText("old", "e1", more)
	flush(t, s.Store)
	if got := entryTextOf(t, s, "old", "e1"); got != "saved before pieces "+more {
		t.Errorf("old entry grew to %d bytes, want %d", len(got), len("saved before pieces "+more))
	}
	if pieces, longest := pieceStats(t, s); pieces < 2 || longest > maxPieceBytes {
		t.Errorf("%d pieces, the longest of %d bytes", pieces, longest)
	}
	checkIndex(t, s, map[string]string{"saved": "old", "upgrade": "old"})
}

func TestCutAt(t *testing.T) {
	long := strings.Repeat("x", pieceBytes+10)
	for _, tc := range []struct {
		name string
		s    string
		room int64
		want int
	}{
		{"fits", "abc def", 7, 7},
		{"after the last space", "abc def ghi", 9, 8},
		{"after a line break", "abc\ndef", 5, 4},
		{"the end of a word joins a full piece", "def ghi", 0, 4},
		{"a short word longer than the room joins the piece", "abcdef", 3, 6},
		{"a long word longer than the room starts a new piece", strings.Repeat("a", 100) + " b", 10, 0},
		{"a long upserted text is not rewritten", "def ghi", -pieceBytes, 0},
		{"a run without spaces fills a new piece", long, pieceBytes, pieceBytes},
		{"never inside a character", strings.Repeat("x", pieceBytes-1) + "é" + "yy", pieceBytes, pieceBytes - 1},
	} {
		if got := cutAt(tc.s, tc.room); got != tc.want {
			t.Errorf("%s: cutAt(%d bytes, %d) = %d, want %d", tc.name, len(tc.s), tc.room, got, tc.want)
		}
	}
}
