package store

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
)

// usageTurn saves one ended turn of session with a receipt (receipt "" saves none).
func usageTurn(w *Writer, session string, turn int, start time.Time, wall time.Duration, receipt string) {
	w.StartTurn(Turn{SessionID: session, Turn: turn, Prompt: "p", StartedAt: start})
	w.EndTurn(session, turn, "end_turn", "", start.Add(wall))
	if receipt != "" {
		w.SetReceipt(session, turn, []byte(receipt))
	}
}

func receiptJSON(wallMs, in, out, total int64, cost float64, currency string) string {
	r := fmt.Sprintf(`{"stopReason":"end_turn","wallMs":%d,"tokens":{"input":%d,"output":%d,"total":%d}`, wallMs, in, out, total)
	if currency != "" {
		r += fmt.Sprintf(`,"cost":{"amount":%g,"currency":%q}`, cost, currency)
	}
	return r + "}"
}

// usageFixture: claude (tokens and USD cost) in /p/a over two days, gemini (tokens, EUR) in
// /p/b, and a silent agent in /p/a that reports nothing.
func usageFixture(t *testing.T) (testStore, time.Time) {
	s := openTest(t)
	w := s.Writer()
	day1 := time.Date(2026, 3, 10, 10, 0, 0, 0, time.Local)
	day2 := day1.AddDate(0, 0, 1)
	w.CreateSession(Session{ID: "s1", AgentID: "claude", AgentName: "Claude", Cwd: "/p/a", Title: "first"})
	w.CreateSession(Session{ID: "s2", AgentID: "gemini", AgentName: "Gemini", Cwd: "/p/b", Title: "second"})
	w.CreateSession(Session{ID: "s3", AgentID: "quiet", AgentName: "<b>Quiet</b>", Cwd: "/p/a", Title: "third"})
	usageTurn(w, "s1", 1, day1, 2*time.Second, receiptJSON(2000, 100, 50, 150, 0.25, "USD"))
	usageTurn(w, "s1", 2, day2, 3*time.Second, receiptJSON(3000, 200, 100, 300, 0.5, "USD"))
	usageTurn(w, "s2", 1, day2.Add(time.Hour), time.Second, receiptJSON(1000, 10, 5, 15, 1, "EUR"))
	usageTurn(w, "s3", 1, day2.Add(2*time.Hour), 4*time.Second, `{"stopReason":"end_turn","wallMs":4000}`)
	usageTurn(w, "s3", 2, day2.Add(3*time.Hour), 5*time.Second, "") // no receipt: timing only
	// A fork of s1 at its turn 2 copies turns 1 and 2 (counted in s1 only), then runs turn 3.
	w.SaveCopy(SessionCopy{Session: Session{ID: "f", AgentID: "claude", AgentName: "Claude", Cwd: "/p/a", Title: "fork"},
		Turns: []Turn{{Turn: 1, StartedAt: day1, EndedAt: day1.Add(2 * time.Second)}, {Turn: 2, StartedAt: day2, EndedAt: day2.Add(3 * time.Second)}}})
	w.LinkSession(Link{Child: "f", Parent: "s1", ParentTurn: 2, Kind: "fork"})
	// A rerun of s2's turn 1 copies nothing before it: its turn 1 is its own.
	w.CreateSession(Session{ID: "r", AgentID: "gemini", AgentName: "Gemini", Cwd: "/p/b", Title: "rerun"})
	w.LinkSession(Link{Child: "r", Parent: "s2", ParentTurn: 1, Kind: "rerun"})
	usageTurn(w, "r", 1, day2.Add(4*time.Hour), time.Second, receiptJSON(1000, 0, 0, 0, 0, ""))
	flush(t, s.Store)
	return s, day1
}

func TestUsageByAgentSumsTokensCostsAndNamesSilentAgents(t *testing.T) {
	s, _ := usageFixture(t)
	l, err := s.Usage(context.Background(), UsageByAgent, time.Time{}, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	want := []UsageRow{
		{Key: "claude", Label: "Claude", Turns: 2, WallMs: 5000, Reported: 2, TokensIn: 300, TokensOut: 150, TokensTotal: 450,
			Costs: []UsageCost{{"USD", 0.75}}},
		{Key: "gemini", Label: "Gemini", Turns: 2, WallMs: 2000, Reported: 2, TokensIn: 10, TokensOut: 5, TokensTotal: 15,
			Costs: []UsageCost{{"EUR", 1}}},
		{Key: "quiet", Label: "<b>Quiet</b>", Turns: 2, WallMs: 9000, Costs: []UsageCost{}},
	}
	if !reflect.DeepEqual(l.Rows, want) {
		t.Errorf("rows =\n%+v\nwant\n%+v", l.Rows, want)
	}
	if l.Total.Turns != 6 || l.Total.WallMs != 16000 || l.Total.TokensTotal != 465 ||
		!reflect.DeepEqual(l.Total.Costs, []UsageCost{{"EUR", 1}, {"USD", 0.75}}) {
		t.Errorf("total = %+v", l.Total)
	}
	if !reflect.DeepEqual(l.Silent, []string{"<b>Quiet</b>"}) {
		t.Errorf("silent = %q", l.Silent)
	}
}

func TestUsageByDayProjectSessionAndRange(t *testing.T) {
	s, day1 := usageFixture(t)
	ctx := context.Background()
	days, err := s.Usage(ctx, UsageByDay, time.Time{}, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	if len(days.Rows) != 2 || days.Rows[0].Key != "2026-03-10" || days.Rows[0].Turns != 1 ||
		days.Rows[1].Key != "2026-03-11" || days.Rows[1].Turns != 5 || days.Rows[1].TokensTotal != 315 {
		t.Errorf("days = %+v", days.Rows)
	}
	projects, err := s.Usage(ctx, UsageByProject, time.Time{}, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	if len(projects.Rows) != 2 || projects.Rows[0].Key != "/p/a" || projects.Rows[0].Turns != 4 ||
		projects.Rows[0].TokensTotal != 450 || projects.Rows[1].Label != "/p/b" {
		t.Errorf("projects = %+v", projects.Rows)
	}
	sessions, err := s.Usage(ctx, UsageBySession, day1.AddDate(0, 0, 1), time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	// The fork's copied turns are not counted again: it has none of its own.
	if len(sessions.Rows) != 4 || sessions.Rows[0].Key != "s1" || sessions.Rows[3].Key != "r" || sessions.Rows[0].Turns != 1 ||
		sessions.Rows[0].Label != "first" || sessions.Rows[0].Agent != "Claude" {
		t.Errorf("sessions since day 2 = %+v", sessions.Rows)
	}
	none, err := s.Usage(ctx, UsageByAgent, day1.AddDate(1, 0, 0), time.Time{})
	if err != nil || len(none.Rows) != 0 || len(none.Silent) != 0 || none.Total.Turns != 0 {
		t.Errorf("future range = %+v, %v", none, err)
	}
	if _, err := s.Usage(ctx, "week", time.Time{}, time.Time{}); err == nil || !strings.Contains(err.Error(), "week") {
		t.Errorf("unknown grouping: %v", err)
	}
}

// A history written before migration 0010: its receipts are indexed, and turns without one get
// tokens and cost from the journal's prompt responses and usage_update reports.
func TestUsageMigrationBackfillsOldTurns(t *testing.T) {
	path, db := dbAtVersion(t, 9)
	const t0 = 1_700_000_000_000
	for _, q := range []string{
		`INSERT INTO sessions (id, agent_id, agent_name, cwd, created_at, updated_at) VALUES ('old', 'a', 'Old', '/x', 0, 0)`,
		fmt.Sprintf(`INSERT INTO turns (session_id, turn, started_at, ended_at, receipt) VALUES
			('old', 1, %d, %d, ''), ('old', 2, %d, %d, '%s'), ('old', 3, %d, NULL, '')`,
			t0, t0+4000, t0+10000, t0+12000, receiptJSON(2000, 7, 3, 10, 0.5, "USD"), t0+20000),
		fmt.Sprintf(`INSERT INTO messages (session_id, seq, direction, method, json, at) VALUES
			('old', 1, 'in', 'session/update', '{"method":"session/update","params":{"update":{"sessionUpdate":"usage_update","used":1,"size":9,"cost":{"amount":1.0,"currency":"USD"}}}}', %d),
			('old', 2, 'in', 'session/update', '{"method":"session/update","params":{"update":{"sessionUpdate":"usage_update","used":2,"size":9,"cost":{"amount":1.5,"currency":"USD"}}}}', %d),
			('old', 3, 'in', '', '{"id":3,"result":{"stopReason":"end_turn","usage":{"inputTokens":40,"outputTokens":2,"totalTokens":42}}}', %d)`,
			t0-1000, t0+1000, t0+3000),
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	db.Close()
	s := openTestAt(t, path)
	l, err := s.Usage(context.Background(), UsageBySession, time.Time{}, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	// Turn 1: 4 s, 42 tokens, 0.5 USD (1.5 - 1.0); turn 2: its receipt; turn 3: crashed, open.
	want := UsageRow{Key: "old", Agent: "Old", Turns: 3, WallMs: 6000, Reported: 2, TokensIn: 47, TokensOut: 5,
		TokensTotal: 52, Costs: []UsageCost{{"USD", 1}}}
	if len(l.Rows) != 1 || !reflect.DeepEqual(l.Rows[0], want) {
		t.Errorf("rows = %+v, want %+v", l.Rows, want)
	}
}

// The ledger follows a receipt saved again (a receipt rewritten after the turn).
func TestUsageFollowsReceiptUpdates(t *testing.T) {
	s := openTest(t)
	w := s.Writer()
	w.CreateSession(Session{ID: "s", AgentName: "A"})
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.Local)
	usageTurn(w, "s", 1, start, time.Second, receiptJSON(1000, 1, 1, 2, 0, ""))
	w.SetReceipt("s", 1, []byte(receiptJSON(1000, 5, 5, 10, 0.1, "USD")))
	w.SetReceipt("s", 1, []byte("not json")) // kept as is; the index keeps the last valid one
	flush(t, s.Store)
	l, err := s.Usage(context.Background(), UsageByAgent, time.Time{}, time.Time{})
	if err != nil || len(l.Rows) != 1 || l.Rows[0].TokensTotal != 10 || l.Rows[0].Key != "A" ||
		!reflect.DeepEqual(l.Rows[0].Costs, []UsageCost{{"USD", 0.1}}) {
		t.Errorf("ledger = %+v, %v", l, err)
	}
}

// BenchmarkUsage compares the ledger's GROUP BY over the indexed columns of migration 0010 with
// the same sums parsed out of every receipt (json_extract), on 20,000 turns of 200 sessions
// whose receipts list 20 changed files each.
func BenchmarkUsage(b *testing.B) {
	s := openTest(b)
	db := rawDB(b, s.path)
	tx, err := db.Begin()
	if err != nil {
		b.Fatal(err)
	}
	files := strings.TrimSuffix(strings.Repeat(`{"root":"/p","path":"backend/a.go","change":"modified","added":3,"removed":1},`, 20), ",")
	for i := 0; i < 200; i++ {
		if _, err := tx.Exec(`INSERT INTO sessions (id, agent_id, agent_name, cwd, created_at, updated_at)
			VALUES (?, ?, ?, ?, 0, 0)`, fmt.Sprint("s", i), fmt.Sprint("a", i%4), "Agent", fmt.Sprint("/p/", i%10)); err != nil {
			b.Fatal(err)
		}
		for j := 1; j <= 100; j++ {
			if _, err := tx.Exec(`INSERT INTO turns (session_id, turn, started_at, ended_at, receipt) VALUES (?, ?, ?, ?, ?)`,
				fmt.Sprint("s", i), j, int64(i*100+j)*60_000, int64(i*100+j)*60_000+5000,
				`{"stopReason":"end_turn","changes":{"files":[`+files+`]},`+
					`"commands":[{"command":"go test ./..."}],`+receiptJSON(5000, 100, 20, 120, 0.01, "USD")[1:]); err != nil {
				b.Fatal(err)
			}
		}
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ResetTimer()
	b.Run("columns", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := s.Usage(ctx, UsageByAgent, time.Time{}, time.Time{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("json_extract", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			rows, err := db.QueryContext(ctx, `SELECT s.agent_id, count(*), sum(json_extract(t.receipt, '$.wallMs')),
				sum(json_extract(t.receipt, '$.tokens.input')), sum(json_extract(t.receipt, '$.tokens.output')),
				sum(json_extract(t.receipt, '$.tokens.total')), json_extract(t.receipt, '$.cost.currency'),
				sum(json_extract(t.receipt, '$.cost.amount'))
				FROM turns t JOIN sessions s ON s.id = t.session_id GROUP BY 1, 7`)
			if err != nil {
				b.Fatal(err)
			}
			for rows.Next() {
			}
			rows.Close()
		}
	})
}

func TestParseUsageSince(t *testing.T) {
	now := time.Date(2026, 3, 11, 15, 4, 5, 0, time.Local)
	for in, want := range map[string]time.Time{
		"":                     {},
		"all":                  {},
		"1d":                   time.Date(2026, 3, 11, 0, 0, 0, 0, time.Local),
		"7d":                   time.Date(2026, 3, 5, 0, 0, 0, 0, time.Local),
		"2026-01-31":           time.Date(2026, 1, 31, 0, 0, 0, 0, time.Local),
		"2026-01-31T10:00:00Z": time.Date(2026, 1, 31, 10, 0, 0, 0, time.UTC),
	} {
		if got, err := ParseUsageSince(in, now); err != nil || !got.Equal(want) {
			t.Errorf("ParseUsageSince(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"0d", "-3d", "yesterday", "2026-13-01"} {
		if _, err := ParseUsageSince(bad, now); err == nil {
			t.Errorf("ParseUsageSince(%q) accepted", bad)
		}
	}
}
