package store

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"
)

func ids(sums []Summary) string {
	var out []string
	for _, s := range sums {
		out = append(out, s.ID)
	}
	return strings.Join(out, ",")
}

func TestListSessionsNewestUpdatedFirst(t *testing.T) {
	s := openTest(t)
	w := s.Writer()
	for _, id := range []string{"s1", "s2", "s3"} {
		w.CreateSession(Session{ID: id, Title: "session " + id})
		s.clock.Advance(time.Second)
	}
	w.StartTurn(Turn{SessionID: "s1", Turn: 1}) // activity moves s1 to the top
	w.StartTurn(Turn{SessionID: "s1", Turn: 2})
	flush(t, s.Store)
	ctx := context.Background()

	all, err := s.ListSessions(ctx, "", 0)
	if err != nil || ids(all) != "s1,s3,s2" {
		t.Fatalf("ListSessions = %s, %v; want s1,s3,s2", ids(all), err)
	}
	if all[0].Turns != 2 || all[1].Turns != 0 || all[0].Snippet != "" || all[0].Title != "session s1" {
		t.Errorf("summary = %+v", all[0])
	}
	two, err := s.ListSessions(ctx, "", 2)
	if err != nil || ids(two) != "s1,s3" {
		t.Errorf("limit 2 = %s, %v", ids(two), err)
	}
}

func TestSessionNotFound(t *testing.T) {
	s := openTest(t)
	if _, _, _, err := s.Session(context.Background(), "nope"); !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "nope") {
		t.Errorf("Session(nope) = %v, want ErrNotFound naming the id", err)
	}
	if err := s.DeleteSession(context.Background(), "nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("DeleteSession(nope) = %v, want ErrNotFound", err)
	}
	if msgs, err := s.Messages(context.Background(), "nope"); err != nil || len(msgs) != 0 {
		t.Errorf("Messages(nope) = %v, %v", msgs, err)
	}
}

// searchFixture writes sessions whose relevance to "parser" is known.
func searchFixture(t *testing.T, s testStore) {
	w := s.Writer()
	add := func(id, title string, texts ...string) {
		w.CreateSession(Session{ID: id, Title: title})
		for i, text := range texts {
			w.UpsertEntry(Entry{SessionID: id, EntryID: id + "-" + string(rune('a'+i)), Seq: i + 1, Kind: "agent_message", Text: text})
		}
		s.clock.Advance(time.Second)
	}
	add("strong", "Refactor the parser", "the parser is slow", "rewrite the parser loop")
	add("weak", "Misc", "a long message about many unrelated things: build, tests, lint, release, "+
		"packaging, docs, icons, and somewhere in the middle a parser, then more words about CI")
	add("none", "Nothing here", "completely different topic")
	add("hostile", "Odd text", "foo-bar baz", "we are NEAR the end", "un café crème")
	w.UpsertEntry(Entry{SessionID: "none", EntryID: "tool", Seq: 9, Kind: "tool_call", Title: "Read main.go"})
	flush(t, s.Store)
}

func TestSearchRanksAndSnippets(t *testing.T) {
	s := openTest(t)
	searchFixture(t, s)
	ctx := context.Background()

	hits, err := s.ListSessions(ctx, "parser", 0)
	if err != nil || ids(hits) != "strong,weak" {
		t.Fatalf("search parser = %s, %v; want strong,weak", ids(hits), err)
	}
	for _, h := range hits {
		if !strings.Contains(h.Snippet, "[[parser]]") {
			t.Errorf("snippet of %s = %q, want [[parser]]", h.ID, h.Snippet)
		}
	}
	if hits[0].Title != "Refactor the parser" {
		t.Errorf("summary session not filled: %+v", hits[0])
	}
	for query, want := range map[string]string{
		"PARS":          "strong,weak", // prefix, case-insensitive
		"parser loop":   "strong",      // every term must match
		"cafe":          "hostile",     // diacritics folded
		"main.go":       "none",        // entry titles are indexed
		"thing nothing": "",
		"refactor":      "strong", // session title
	} {
		got, err := s.ListSessions(ctx, query, 0)
		if err != nil || ids(got) != want {
			t.Errorf("search %q = %s, %v; want %q", query, ids(got), err, want)
		}
	}
	if got, _ := s.ListSessions(ctx, "parser", 1); ids(got) != "strong" {
		t.Errorf("search with limit 1 = %s", ids(got))
	}
	if got, _ := s.ListSessions(ctx, "refactor", 0); len(got) == 1 && !strings.Contains(got[0].Snippet, "[[Refactor]]") {
		t.Errorf("title snippet = %q", got[0].Snippet)
	}
}

func TestSearchHostileQueriesNeverFail(t *testing.T) {
	s := openTest(t)
	searchFixture(t, s)
	ctx := context.Background()
	for _, q := range []string{`"`, `*`, `)`, `(`, `   `, `-`, `^`, `:`, `""`, "\x00"} {
		got, err := s.ListSessions(ctx, q, 0)
		if err != nil || len(got) != 4 {
			t.Errorf("query %q (no terms) = %d sessions, %v; want the plain list of 4", q, len(got), err)
		}
	}
	for q, want := range map[string]string{
		`foo-bar`:                    "hostile",
		`NEAR(`:                      "hostile",
		`near(the, end`:              "hostile",
		`"unbalanced`:                "",
		`AND`:                        "weak", // a word, not an operator
		`" OR "`:                     "",
		`'; DROP TABLE sessions; --`: "",
		`OR NOT parser`:              "",
		`col:parser`:                 "",
		`parser*`:                    "strong,weak",
		`{parser}`:                   "strong,weak",
		`🙂 parser`:                   "strong,weak",
	} {
		got, err := s.ListSessions(ctx, q, 0)
		if err != nil || ids(got) != want {
			t.Errorf("query %q = %s, %v; want %q", q, ids(got), err, want)
		}
	}
}

func TestMatchExpr(t *testing.T) {
	for in, want := range map[string]string{
		"foo bar":        `"foo"* "bar"*`,
		"foo-bar":        `"foo"* "bar"*`,
		`say "hi"`:       `"say"* "hi"`, // shorter than minPrefix: a whole word
		"NEAR(a b)":      `"NEAR"* "a" "b"`,
		"café 42 été":    `"café"* "42" "été"*`,
		"\u0301 xyz":     `"xyz"*`,
		"* ) ( \" - ^ :": "",
	} {
		if got := matchExpr(in); got != want {
			t.Errorf("matchExpr(%q) = %s, want %s", in, got, want)
		}
	}
	if got := matchExpr(strings.Repeat("wor ", 100)); strings.Count(got, `"wor"*`) != maxTerms {
		t.Errorf("terms not capped: %s", got)
	}
}

func TestDeleteSessionCascades(t *testing.T) {
	s := openTest(t)
	w := s.Writer()
	ctx := context.Background()
	for _, id := range []string{"gone", "kept"} {
		w.CreateSession(Session{ID: id, Title: "title " + id + "word"})
		w.StartTurn(Turn{SessionID: id, Turn: 1})
		w.UpsertEntry(Entry{SessionID: id, EntryID: "e", Seq: 1, Text: "text " + id + "unique"})
		w.Message(Message{SessionID: id, Direction: DirectionIn, JSON: []byte(`{}`)})
	}
	flush(t, s.Store)
	// Queued, not flushed: DeleteSession runs after it.
	w.UpsertEntry(Entry{SessionID: "gone", EntryID: "late", Seq: 2, Text: "late goneunique"})
	if err := s.DeleteSession(ctx, "gone"); err != nil {
		t.Fatalf("DeleteSession: %v", err)
	}

	if _, _, _, err := s.Session(ctx, "gone"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Session(gone) after delete = %v", err)
	}
	for _, table := range []string{"turns", "entries", "messages", "titles_fts"} {
		var n int
		if err := s.db.QueryRow(`SELECT count(*) FROM ` + table + ` WHERE session_id = 'gone'`).Scan(&n); err != nil || n != 0 {
			t.Errorf("%s still has %d rows of the deleted session (%v)", table, n, err)
		}
	}
	for _, q := range []string{"goneunique", "gonew"} {
		if got, err := s.ListSessions(ctx, q, 0); err != nil || len(got) != 0 {
			t.Errorf("search %q after delete = %s, %v", q, ids(got), err)
		}
	}
	if got, err := s.ListSessions(ctx, "keptunique", 0); err != nil || ids(got) != "kept" {
		t.Errorf("other session lost: %s, %v", ids(got), err)
	}
	if _, err := s.db.Exec(`INSERT INTO entries_fts (entries_fts, rank) VALUES ('integrity-check', 1)`); err != nil {
		t.Errorf("FTS integrity-check: %v", err)
	}
	if err := s.DeleteSession(ctx, "gone"); !errors.Is(err, ErrNotFound) {
		t.Errorf("second delete = %v, want ErrNotFound", err)
	}
}

func TestRenameSession(t *testing.T) {
	ctx := context.Background()
	s := openTest(t, WithBatch(time.Hour, 1_000_000))
	w := s.Writer()
	w.CreateSession(Session{ID: "s", Title: "Fix the parser"})
	s.clock.Advance(time.Minute)
	w.CreateSession(Session{ID: "newer", Title: "Something else"})
	// Not flushed: the rename is queued after the creation and commits it too.
	if err := s.RenameSession(ctx, "s", "Tokenizer rewrite"); err != nil {
		t.Fatalf("RenameSession: %v", err)
	}
	got, _, _, err := s.Session(ctx, "s")
	if err != nil || got.Title != "Tokenizer rewrite" || !got.UpdatedAt.Equal(got.CreatedAt) {
		t.Errorf("after rename: %+v, %v; want the new title and updated_at untouched", got, err)
	}
	for q, want := range map[string]string{"tokenizer": "s", "parser": "", "": "newer,s"} {
		if hits, err := s.ListSessions(ctx, q, 0); err != nil || ids(hits) != want {
			t.Errorf("search %q after rename = %s, %v; want %q", q, ids(hits), err, want)
		}
	}
	if err := s.RenameSession(ctx, "s", ""); err != nil {
		t.Fatal(err)
	}
	if hits, err := s.ListSessions(ctx, "tokenizer", 0); err != nil || len(hits) != 0 {
		t.Errorf("an emptied title is still found: %s, %v", ids(hits), err)
	}
	if err := s.RenameSession(ctx, "nope", "x"); !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), `"nope"`) {
		t.Errorf("RenameSession(nope) = %v, want ErrNotFound naming the id", err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.RenameSession(ctx, "s", "late"); !errors.Is(err, ErrClosed) {
		t.Errorf("RenameSession after Close = %v, want ErrClosed", err)
	}
}

func TestSearchShortTermsMatchWholeWords(t *testing.T) {
	s := openTest(t)
	w := s.Writer()
	for id, text := range map[string]string{"go": "written in Go", "good": "a good idea", "gopher": "the gopher"} {
		w.CreateSession(Session{ID: id})
		w.UpsertEntry(Entry{SessionID: id, EntryID: "e", Seq: 1, Text: text})
	}
	flush(t, s.Store)
	for q, want := range map[string]string{"go": "go", "goo": "good", "gop": "gopher", "g": ""} {
		if got, err := s.ListSessions(context.Background(), q, 0); err != nil || ids(got) != want {
			t.Errorf("search %q = %s, %v; want %q", q, ids(got), err, want)
		}
	}
}

// TestSearchBeyondScoredHits checks a query with more hits than a search scores: the newest
// hits are ranked, older sessions fill the limit (unscored, after the scored ones, without
// a snippet), and no limit lists every matching session.
func TestSearchBeyondScoredHits(t *testing.T) {
	ctx := context.Background()
	const scored = 40
	s := openTest(t, withScoreHits(scored))
	w := s.Writer()
	perSession := scored / 4
	for i := range 6 { // s0 (oldest) ... s5: 1.5 × scored matching entries in all
		id := "s" + strconv.Itoa(i)
		w.CreateSession(Session{ID: id})
		for j := range perSession {
			w.UpsertEntry(Entry{SessionID: id, EntryID: strconv.Itoa(j), Seq: j, Text: "common word here"})
		}
		s.clock.Advance(time.Minute)
	}
	w.StartTurn(Turn{SessionID: "s0", Turn: 1}) // s0 is now the most recently updated
	flush(t, s.Store)

	for limit, want := range map[int]string{
		4: "s5,s4,s3,s2",       // the scored sessions (the 40 newest hits)
		5: "s5,s4,s3,s2,s1",    // filled from older hits, newest first, until the limit
		0: "s5,s4,s3,s2,s0,s1", // everything; unscored sessions by updated_at
	} {
		got, err := s.ListSessions(ctx, "common", limit)
		if err != nil || ids(got) != want {
			t.Errorf("limit %d: %s, %v; want %s", limit, ids(got), err, want)
		}
		for _, sum := range got { // only scored sessions have a best hit to show
			if scored := sum.ID >= "s2"; scored != strings.Contains(sum.Snippet, "[[common]]") {
				t.Errorf("limit %d: snippet of %s = %q", limit, sum.ID, sum.Snippet)
			}
		}
	}
}
