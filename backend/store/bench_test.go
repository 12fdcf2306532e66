package store

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Benchmarks print their figures as "name: value unit" lines (once per run) and report them
// with b.ReportMetric. They assert nothing about time. Targets (see the report that added
// them): search p50 < 20 ms on 100,000 entries, loading a 10,000-entry session < 100 ms.

// corpus generates a deterministic, English-ish transcript: words drawn from a Zipf
// distribution over a common-word list followed by a long tail of made-up words, plus a few
// rare words (see rareWords) in about one entry in 20,000 each.
type corpus struct {
	rng   *rand.Rand
	zipf  *rand.Zipf
	vocab []string
}

var commonWords = strings.Fields(`the to of and a in is it you that for on this with be as
	file test function error we can not are if but or at an by from will use so code it's there
	here now then build run config value return type string package import make sure check add
	fix update change need should would could line new old name path read write open close call
	parser server client request response session agent tool message user time data list map
	key index table query search result output input command flag option default option module
	version release branch commit merge diff patch review comment issue bug feature support
	handle handler event stream chunk buffer cache store database schema migration row column
	window view render component state props style layout button click page route link font
	color theme dark light icon image token auth login logout password secret permission allow
	reject deny cancel stop start begin end finish done pending failed completed running status
	plan step task todo goal next first last before after again still already just only also
	more less many much some any each every all none both other another same different
	because since while until unless though although however therefore instead maybe likely
	look see find show get set put let try keep move copy delete remove create insert replace
	configure configuration conflict conflicts constant construct contains context continue`)

// rareWords each appear in about 5 of 100,000 entries.
var rareWords = strings.Fields(`quokka zanzibar xylophone marmalade obsidian tangerine
	kerfuffle brouhaha flibbertigibbet gobbledygook`)

func newCorpus(seed uint64) *corpus {
	rng := rand.New(rand.NewPCG(seed, 42))
	vocab := slices.Clone(commonWords)
	syll := strings.Fields("ba be bi bo bu ka ke ki ko ku la le li lo lu ma me mi mo mu na ne ni no nu ra re ri ro ru ta te ti to tu va ve vi vo vu")
	for len(vocab) < 5000 {
		n := 2 + rng.IntN(3)
		var w strings.Builder
		for range n {
			w.WriteString(syll[rng.IntN(len(syll))])
		}
		vocab = append(vocab, w.String())
	}
	return &corpus{rng: rng, vocab: vocab, zipf: rand.NewZipf(rng, 1.07, 2, uint64(len(vocab)-1))}
}

// text returns n words with some punctuation.
func (c *corpus) text(n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			if c.rng.IntN(12) == 0 {
				b.WriteString(". ")
			} else {
				b.WriteByte(' ')
			}
		}
		b.WriteString(c.vocab[c.zipf.Uint64()])
	}
	if c.rng.IntN(20000/len(rareWords)) == 0 {
		b.WriteByte(' ')
		b.WriteString(rareWords[c.rng.IntN(len(rareWords))])
	}
	return b.String()
}

// entry returns entry number seq of a session, shaped like a real transcript: user prompts,
// agent messages and thoughts of a few dozen words, tool calls with a short title and often
// a long output. Body is the entry as JSON, as the engine stores it.
func (c *corpus) entry(sessionID string, seq int) Entry {
	e := Entry{SessionID: sessionID, EntryID: "e" + strconv.Itoa(seq), Seq: seq, Turn: seq/20 + 1}
	switch r := c.rng.IntN(100); {
	case seq%20 == 0 || r < 5:
		e.Kind, e.Text = "user_message", c.text(8+c.rng.IntN(32))
	case r < 40:
		e.Kind, e.Text = "agent_message", c.text(20+c.rng.IntN(180))
	case r < 60:
		e.Kind, e.Text = "thought", c.text(10+c.rng.IntN(70))
	default:
		e.Kind, e.Status = "tool_call", "completed"
		e.Title = "Read " + c.vocab[c.zipf.Uint64()] + "/" + c.vocab[c.zipf.Uint64()] + ".go"
		if c.rng.IntN(10) < 6 {
			e.Text = c.text(20 + c.rng.IntN(580))
		}
	}
	body, err := json.Marshal(map[string]any{"id": e.EntryID, "kind": e.Kind,
		"status": e.Status, "title": e.Title, "text": e.Text})
	if err != nil {
		panic(err)
	}
	e.Body = body
	return e
}

// fill writes sessions × perSession entries through the Writer, as sessions would.
func fill(b *testing.B, s testStore, c *corpus, sessions, perSession int) {
	w := s.Writer()
	for i := range sessions {
		id := fmt.Sprintf("session-%04d", i)
		w.CreateSession(Session{ID: id, AgentID: "demo", Title: c.text(3 + c.rng.IntN(5)), Cwd: "/src/app"})
		for seq := range perSession {
			if seq%20 == 0 {
				w.StartTurn(Turn{SessionID: id, Turn: seq/20 + 1, Prompt: "prompt"})
			}
			w.UpsertEntry(c.entry(id, seq))
			if seq%20 == 19 || seq == perSession-1 {
				w.EndTurn(id, seq/20+1, "end_turn", "", time.Time{})
			}
		}
		s.clock.Advance(time.Minute)
	}
	flush(b, s.Store)
}

// fileBytes checkpoints the WAL into the database file and returns the file's size.
func fileBytes(b *testing.B, s testStore) int64 {
	if _, err := s.db.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		b.Fatal(err)
	}
	st, err := os.Stat(s.Path())
	if err != nil {
		b.Fatal(err)
	}
	return st.Size()
}

// figure prints and reports one result.
func figure(b *testing.B, name string, value float64, unit string) {
	fmt.Printf("%s: %.4g %s\n", name, value, unit)
	b.ReportMetric(value, name)
}

// percentile returns the p-th percentile (0..1) of sorted durations, in milliseconds.
func percentile(sorted []time.Duration, p float64) float64 {
	i := min(len(sorted)-1, int(p*float64(len(sorted))))
	return float64(sorted[i].Microseconds()) / 1000
}

// BenchmarkSearch runs 200 history searches (common words, rare words, two words, prefixes)
// on 500 sessions × 200 entries, with the app's limit of 200 sessions and with 50. It also
// reports the file size per 1000 entries and how long an Open of that file takes.
func BenchmarkSearch(b *testing.B) {
	if testing.Short() {
		b.Skip("builds a 100,000-entry database")
	}
	const sessions, perSession = 500, 200
	s := openTest(b)
	c := newCorpus(1)
	start := time.Now()
	fill(b, s, c, sessions, perSession)
	fmt.Printf("build_100k_entries_s: %.3g s\n", time.Since(start).Seconds())
	size := fileBytes(b, s)
	figure(b, "db_bytes_per_1000_entries", float64(size)/(sessions*perSession/1000), "bytes")
	var textBytes float64
	if err := s.db.QueryRow(`SELECT avg(length(text)) FROM entries`).Scan(&textBytes); err != nil {
		b.Fatal(err)
	}
	fmt.Printf("avg_entry_text_bytes: %.0f bytes\n", textBytes)
	rows, err := s.db.Query(`SELECT name, sum(pgsize) FROM dbstat
		WHERE name IN ('entries', 'entries_fts_data', 'entries_hit', 'entries_seq') GROUP BY name`)
	if err != nil {
		b.Fatal(err)
	}
	for rows.Next() { // where the bytes go
		var name string
		var bytes float64
		if err := rows.Scan(&name, &bytes); err != nil {
			b.Fatal(err)
		}
		fmt.Printf("db_bytes_per_1000_entries_in_%s: %.4g bytes\n", name, bytes/(sessions*perSession/1000))
	}
	if err := rows.Err(); err != nil {
		b.Fatal(err)
	}
	rows.Close()

	if err := s.Close(); err != nil {
		b.Fatal(err)
	}
	start = time.Now()
	s = openTestAt(b, s.Path())
	figure(b, "open_100k_entries_ms", float64(time.Since(start).Microseconds())/1000, "ms")

	// 200 is the app's history list limit; 50 a shorter page.
	queries := searchQueries()
	ctx := context.Background()
	lat := map[int][]time.Duration{}
	hits := 0
	for b.Loop() {
		for _, limit := range []int{200, 50} {
			for _, q := range queries {
				t0 := time.Now()
				got, err := s.ListSessions(ctx, q, limit)
				lat[limit] = append(lat[limit], time.Since(t0))
				if err != nil {
					b.Fatal(err)
				}
				hits += len(got)
			}
		}
	}
	if hits == 0 {
		b.Fatal("no search found anything")
	}
	for _, limit := range []int{200, 50} {
		slices.Sort(lat[limit])
		name := "search"
		if limit != 200 {
			name = "search_limit" + strconv.Itoa(limit)
		}
		figure(b, name+"_p50_ms", percentile(lat[limit], 0.50), "ms")
		figure(b, name+"_p95_ms", percentile(lat[limit], 0.95), "ms")
	}
}

// searchQueries returns 200 searches: common words ("the", "to"...), rare words, two
// words, and the first three letters of a word being typed.
func searchQueries() []string {
	var prefixes []string
	for _, w := range commonWords[20:] {
		if len(w) >= 5 {
			prefixes = append(prefixes, w[:3])
		}
	}
	var queries []string
	for i := range 50 {
		queries = append(queries,
			commonWords[i%10],
			rareWords[i%len(rareWords)],
			commonWords[40+i%30]+" "+commonWords[70+i%40],
			prefixes[i*7%len(prefixes)],
		)
	}
	return queries
}

// BenchmarkLoadSession loads one 10,000-entry session with Store.Session.
func BenchmarkLoadSession(b *testing.B) {
	if testing.Short() {
		b.Skip("builds a 10,000-entry session")
	}
	s := openTest(b)
	fill(b, s, newCorpus(2), 1, 10_000)
	ctx := context.Background()
	var lat []time.Duration
	for b.Loop() {
		t0 := time.Now()
		_, _, entries, err := s.Session(ctx, "session-0000")
		lat = append(lat, time.Since(t0))
		if err != nil || len(entries) != 10_000 {
			b.Fatalf("Session: %d entries, %v", len(entries), err)
		}
	}
	slices.Sort(lat)
	figure(b, "load_10k_entries_ms", percentile(lat, 0.50), "ms")
}

// BenchmarkWriterFlood streams a flood as the app records one (e2e/perf.mjs's workload):
// 20,000 chunks into 2,000 entries of a session, each chunk journaled raw and appended to its
// entry, with the writer committing batches of 2,000 operations as it does when chunks arrive
// faster than its 50 ms delay. ns/op and cpu-ns/chunk (the process's CPU time) are per chunk; each iteration round is a new session in
// the same file, so the history grows as a day's would.
func BenchmarkWriterFlood(b *testing.B) {
	const entries, perEntry = 2_000, 10
	s := openTest(b, WithBatch(time.Hour, 2_000))
	w := s.Writer()
	raw := []byte(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":` +
		`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Chunk **1** of the stream: reading ` +
		"`src/main.go`" + ` "}}}}`)
	// The chunks' words are drawn before the clock starts: drawing them cost a µs a chunk, which
	// is the benchmark's work, not the writer's.
	c := newCorpus(3)
	texts := make([]string, 4096)
	for i := range texts {
		texts[i] = c.text(8) + " "
	}
	b.ResetTimer()
	cpu0 := cpuTime(b)
	for n, round := 0, 0; n < b.N; round++ {
		id := fmt.Sprintf("flood-%04d", round)
		w.CreateSession(Session{ID: id, AgentID: "demo", Title: "flood"})
		w.StartTurn(Turn{SessionID: id, Turn: 1, Prompt: "stream"})
		for e := 0; e < entries && n < b.N; e++ {
			entryID := "agent-" + strconv.Itoa(e)
			for k := 0; k < perEntry && n < b.N; k, n = k+1, n+1 {
				w.Message(Message{SessionID: id, Direction: "in", Method: "session/update", JSON: raw})
				text := texts[n%len(texts)]
				if k == 0 {
					w.UpsertEntry(Entry{SessionID: id, EntryID: entryID, Turn: 1, Seq: e + 2, Kind: "agent", Text: text})
				} else {
					w.AppendText(id, entryID, text)
				}
			}
		}
		w.EndTurn(id, 1, "end_turn", "", time.Time{})
	}
	flush(b, s.Store)
	b.StopTimer()
	// CPU rather than wall time: the writer's goroutine and the benchmark's run side by side.
	b.ReportMetric(float64(cpuTime(b)-cpu0)/float64(b.N), "cpu-ns/chunk")
	var segments int
	if err := s.db.QueryRow(`SELECT count(*) FROM entries_fts_data`).Scan(&segments); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(segments)/float64(b.N)*1000, "fts-rows/1k-chunks")
}

// BenchmarkAppendLongMessage streams one message the way a flood does, chunk by chunk (words
// from the corpus, about 100 bytes a chunk), through AppendText up to the turn end's commit:
// the same 1 MiB stream repeated 10 times, then 100 times, each message in a session of its
// own. append_1MB_message_x100_vs_x10 is the ratio of the two times: linear appends make it
// about 10 (target ≤ 12). Rewriting the whole message every batch made it grow with the length
// (10 MiB took 66 times as long as 1 MiB, 30 s; 100 MiB would have taken most of an hour).
func BenchmarkAppendLongMessage(b *testing.B) {
	if testing.Short() {
		b.Skip("streams a 100 MiB message")
	}
	c := newCorpus(4)
	var stream []string
	for size := 0; size < 1<<20; {
		chunk := c.text(16) + " "
		stream = append(stream, chunk)
		size += len(chunk)
	}
	s := openTest(b)
	var took [2]time.Duration
	round := 0
	for b.Loop() {
		for i, times := range []int{10, 100} {
			took[i] += appendMessage(b, s, fmt.Sprintf("long-%d", round), stream, times)
			round++
		}
	}
	runs := float64(round / 2)
	figure(b, "append_1MB_message_x10_s", took[0].Seconds()/runs, "s")
	figure(b, "append_1MB_message_x100_s", took[1].Seconds()/runs, "s")
	figure(b, "append_1MB_message_x100_vs_x10", float64(took[1])/float64(took[0]), "x")
}

// appendMessage streams stream times times into one new message of session id, ends its turn
// and returns how long that took until the turn end was committed.
func appendMessage(b *testing.B, s testStore, id string, stream []string, times int) time.Duration {
	w := s.Writer()
	w.CreateSession(Session{ID: id, AgentID: "demo", Title: "long message"})
	w.StartTurn(Turn{SessionID: id, Turn: 1, Prompt: "stream"})
	w.UpsertEntry(Entry{SessionID: id, EntryID: "m", Turn: 1, Seq: 1, Kind: "agent_message"})
	flush(b, s.Store)
	start := time.Now()
	want := 0
	for range times {
		for _, chunk := range stream {
			w.AppendText(id, "m", chunk)
			want += len(chunk)
		}
	}
	w.EndTurn(id, 1, "end_turn", "", time.Time{})
	flush(b, s.Store)
	took := time.Since(start)
	var got int
	if err := s.db.QueryRow(`SELECT octet_length(e.text) + coalesce((SELECT sum(octet_length(p.text))
		FROM entry_pieces p WHERE p.entry = e.id), 0) FROM entries e WHERE e.session_id = ?`, id).Scan(&got); err != nil || got != want {
		b.Fatalf("the message holds %d bytes, want %d (%v)", got, want, err)
	}
	return took
}
