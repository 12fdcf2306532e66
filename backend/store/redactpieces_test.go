package store

import (
	"context"
	"strings"
	"testing"
)

// A long value without a space, streamed in chunks at the end of a full piece, is cut across
// two pieces (cutAt keeps at most a 64-byte word end in a full piece). A pass that masks it
// later finds it across the cut: neither piece, nor the search index, keeps a part of it.
func TestRedactFindsAValueCutAcrossPieces(t *testing.T) {
	s := openTest(t)
	w := s.Writer()
	value := "zqSEC" + strings.Repeat("a1b2c3d4e5", 10) // 105 bytes, one word
	w.CreateSession(Session{ID: "s1", Title: "long"})
	w.UpsertEntry(Entry{SessionID: "s1", EntryID: "long", Kind: "agent"})
	filler := strings.Repeat("filler ", (pieceBytes-8)/7) // 8 bytes short of a full piece
	w.AppendText("s1", "long", filler)
	for i := 0; i < len(value); i += 20 { // a batch each: the writer joins the appends of one
		flush(t, s.Store)
		w.AppendText("s1", "long", value[i:min(i+20, len(value))])
	}
	w.AppendText("s1", "long", " and after")
	flush(t, s.Store)
	if got := entryTextOf(t, s, "s1", "long"); got != filler+value+" and after" {
		t.Fatalf("the streamed text reads back as %d bytes", len(got))
	}
	if n := cellsHolding(t, s, value); n != 0 {
		t.Fatalf("%d cells hold the whole value: it was not cut across pieces, the test proves nothing", n)
	}
	if n := cellsHolding(t, s, value[:20]); n == 0 {
		t.Fatal("no cell holds the value's start")
	}

	n, _, err := s.Redact(context.Background(), Redaction{Values: []string{value}, Mask: strings.NewReplacer(value, hidden).Replace})
	if err != nil || n != 1 {
		t.Fatalf("Redact: %d rows, %v; want the entry", n, err)
	}
	if got, want := entryTextOf(t, s, "s1", "long"), filler+hidden+" and after"; got != want {
		t.Errorf("after the pass the text ends %q, want %q", got[len(filler)-10:], want[len(filler)-10:])
	}
	for _, part := range []string{value[:20], value[len(value)-20:]} {
		if n := cellsHolding(t, s, part); n != 0 {
			t.Errorf("%d cells still hold %q, a part of the value", n, part)
		}
	}
	checkIndex(t, s, map[string]string{strings.ToLower(value[:15]): "", "e5": "", "after": "s1", "filler": "s1"})
}
