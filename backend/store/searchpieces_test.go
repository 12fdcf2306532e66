package store

import (
	"context"
	"strings"
	"testing"
)

// A long streamed entry is searched as one text: a word inside one of its 32 KiB pieces finds
// it, with a snippet from around that word, and so do two words on either side of a cut
// between two pieces, with a snippet that marks one of them.
func TestSearchFindsWordsWithinAndAcrossPieces(t *testing.T) {
	s := openTest(t)
	w := s.Writer()
	w.CreateSession(Session{ID: "long", Title: "long"})
	w.UpsertEntry(Entry{SessionID: "long", EntryID: "m", Kind: "agent"})
	w.CreateSession(Session{ID: "other", Title: "other"})
	w.UpsertEntry(Entry{SessionID: "other", EntryID: "m", Kind: "agent", Text: "omegaend only"})
	flush(t, s.Store)
	// entries.text: filler up to "omegaend alphastart " (a full piece takes in the next word),
	// then pieces: "bravostart", filler, "inside quokkamiddle here", filler.
	filler := strings.Repeat("filler ", (pieceBytes-9)/7)
	filler += strings.Repeat("x", pieceBytes-9-len(filler)-1) + " "
	w.AppendText("long", "m", filler)
	flush(t, s.Store)
	w.AppendText("long", "m", "omegaend ")
	flush(t, s.Store)
	w.AppendText("long", "m", "alphastart bravostart "+filler[:7*(pieceBytes/14)]+"inside quokkamiddle here "+filler)
	flush(t, s.Store)
	var base string
	var second string
	if err := s.db.QueryRow(`SELECT e.text, p.text FROM entries e JOIN entry_pieces p ON p.entry = e.id
		WHERE e.session_id = 'long' ORDER BY p.id LIMIT 1`).Scan(&base, &second); err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(base, " omegaend alphastart ") || !strings.HasPrefix(second, "bravostart ") ||
		!strings.Contains(second, "quokkamiddle") {
		t.Fatalf("the pieces are cut elsewhere: ...%q | %q...", base[len(base)-30:], second[:30])
	}

	for _, c := range []struct{ query, sessions, snippet string }{
		{"quokkamiddle", "long", "inside [[quokkamiddle]] here"},
		{"inside quokkamiddle", "long", "[[inside]] [[quokkamiddle]] here"},
		{"omegaend alphastart", "long", "[[omegaend]] [[alphastart]]"},
		{"omegaend bravostart", "long", "[["},     // across the cut: one of them marked
		{"alphastart quokkamiddle", "long", "[["}, // a piece apart
		{"omegaend", "other,long", "[[omegaend]]"},
		{"omegaend zzznothing", "", ""},
	} {
		got, err := s.ListSessions(context.Background(), c.query, 0)
		if err != nil || ids(got) != c.sessions {
			t.Errorf("search %q = %q, %v; want %q", c.query, ids(got), err, c.sessions)
			continue
		}
		if len(got) > 0 && got[0].ID == "long" && !strings.Contains(got[0].Snippet, c.snippet) {
			t.Errorf("search %q: snippet %q, want it to hold %q", c.query, got[0].Snippet, c.snippet)
		}
	}
}
