package store

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Usage groupings: what one row of a UsageLedger sums.
const (
	UsageByDay     = "day"     // a local calendar day (Key "2006-01-02")
	UsageByAgent   = "agent"   // an agent (Key its id, else its name)
	UsageByProject = "project" // a session's working folder (Key the path)
	UsageBySession = "session" // one session (Key its id)
)

// UsageCost is money spent in one currency.
type UsageCost struct {
	Currency string  `json:"currency"`
	Amount   float64 `json:"amount"`
}

// UsageRow sums the turns of one group.
type UsageRow struct {
	// Key identifies the group (see the UsageBy constants); Label is what to show for it (a
	// day, an agent's name, a folder, a session's title). Both are data from the history, to be
	// shown as text, never as markup.
	Key   string `json:"key"`
	Label string `json:"label"`
	// Agent is the group's agent name when the row is per session (else "").
	Agent string `json:"agent,omitempty"`
	// Turns counts the turns started in the range; WallMs sums their length (a turn still
	// running counts nothing).
	Turns  int   `json:"turns"`
	WallMs int64 `json:"wallMs"`
	// Reported counts the turns for which the agent reported tokens or a cost.
	Reported int `json:"reported"`
	// Tokens as the agents reported them (0 when none did).
	TokensIn    int64 `json:"tokensIn"`
	TokensOut   int64 `json:"tokensOut"`
	TokensTotal int64 `json:"tokensTotal"`
	// Costs holds one sum per currency, by currency; a cost reported without a currency has
	// Currency "".
	Costs []UsageCost `json:"costs"`
}

// UsageLedger is the usage of a time range, grouped one way.
type UsageLedger struct {
	By    string    `json:"by"`
	Since time.Time `json:"since"` // zero: from the first turn
	Until time.Time `json:"until"` // zero: up to now
	// Rows are ordered by Key (days oldest first), except for agents, projects and sessions:
	// most tokens first, then most turns, then Key.
	Rows  []UsageRow `json:"rows"`
	Total UsageRow   `json:"total"`
	// Silent names the agents of the range that reported neither tokens nor cost for any turn:
	// they are counted by turns and time only.
	Silent []string `json:"silent"`
}

// usageTurns selects the turns started in [?, ?) with their sessions, leaving out the turns a
// session copied from its parent when it branched (a fork or a continuation in another agent
// copies the parent's turns up to the branch, a rerun those before it: links.go, hub.Fork), so
// a turn is counted once, in the session that ran it.
const usageTurns = `FROM turns t JOIN sessions s ON s.id = t.session_id
		WHERE t.started_at >= ? AND t.started_at < ?
		AND NOT EXISTS (SELECT 1 FROM session_links l WHERE l.child = t.session_id
			AND (t.turn < l.parent_turn OR (t.turn = l.parent_turn AND l.kind != 'rerun')))`

// bucketMs is the width of the time buckets a per-day ledger sums in SQL before they are put
// into local days: every time zone's offset is a multiple of 15 minutes.
const bucketMs = 15 * 60 * 1000

// Usage returns the ledger of the turns started in [since, until) (a zero since: from the
// first; a zero until: no end), grouped by one of the UsageBy constants (an unknown one is an
// error). Days are local calendar days (time.Local). A turn's length is its receipt's wall
// time, else its end minus its start (nothing for a turn a crash interrupted: its end is when
// the history was next opened); tokens and cost come from its receipt, or for turns saved
// before receipts from what the journal kept (migration 0010). The turns a branched session
// copied from its parent are counted in the parent only. It reads committed data only.
func (s *Store) Usage(ctx context.Context, by string, since, until time.Time) (UsageLedger, error) {
	l, err := s.usage(ctx, by, since, until)
	if err != nil {
		return UsageLedger{}, fmt.Errorf("read usage by %s: %w", by, err)
	}
	return l, nil
}

// usageKeys are the SQL group key and label of each grouping. Per day groups by bucket.
var usageKeys = map[string][2]string{
	UsageByDay:     {`t.started_at / ` + fmt.Sprint(bucketMs), `''`},
	UsageByAgent:   {`CASE WHEN s.agent_id != '' THEN s.agent_id ELSE s.agent_name END`, `max(s.agent_name)`},
	UsageByProject: {`s.cwd`, `s.cwd`},
	UsageBySession: {`s.id`, `max(s.title)`},
}

func (s *Store) usage(ctx context.Context, by string, since, until time.Time) (UsageLedger, error) {
	key, ok := usageKeys[by]
	if !ok {
		return UsageLedger{}, fmt.Errorf("unknown grouping %q (want day, agent, project or session)", by)
	}
	l := UsageLedger{By: by, Since: since, Until: until, Rows: []UsageRow{}, Silent: []string{}}
	lo, hi := int64(0), int64(1<<62)
	if !since.IsZero() {
		lo = since.UnixMilli()
	}
	if !until.IsZero() {
		hi = until.UnixMilli()
	}
	// One row per group and currency; the agent's name rides along for Silent.
	rows, err := s.db.QueryContext(ctx, `SELECT `+key[0]+`, `+key[1]+`, max(s.agent_name),
		count(*), sum(CASE WHEN t.wall_ms IS NOT NULL THEN t.wall_ms
			WHEN t.stop_reason = '`+OutcomeInterrupted+`' THEN 0 ELSE coalesce(t.ended_at - t.started_at, 0) END),
		count(CASE WHEN t.tokens_total IS NOT NULL OR t.tokens_in IS NOT NULL OR t.cost IS NOT NULL THEN 1 END),
		coalesce(sum(t.tokens_in), 0), coalesce(sum(t.tokens_out), 0),
		coalesce(sum(coalesce(t.tokens_total, coalesce(t.tokens_in, 0) + coalesce(t.tokens_out, 0))), 0),
		t.currency, sum(t.cost)
		`+usageTurns+`
		GROUP BY 1, t.currency`, lo, hi)
	if err != nil {
		return l, err
	}
	defer rows.Close()
	groups := map[string]*UsageRow{}
	for rows.Next() {
		var (
			k, label, agent string
			r               UsageRow
			currency        string
			cost            *float64
		)
		if err := rows.Scan(&k, &label, &agent, &r.Turns, &r.WallMs, &r.Reported, &r.TokensIn, &r.TokensOut,
			&r.TokensTotal, &currency, &cost); err != nil {
			return l, err
		}
		if by == UsageByDay {
			var bucket int64
			fmt.Sscan(k, &bucket)
			k = time.UnixMilli(bucket * bucketMs).In(time.Local).Format("2006-01-02")
			label = k
		}
		if by == UsageBySession {
			r.Agent = agent
		}
		if by == UsageByAgent && label == "" {
			label = k
		}
		g := groups[k]
		if g == nil {
			g = &UsageRow{Key: k, Label: label, Agent: r.Agent, Costs: []UsageCost{}}
			groups[k] = g
		}
		addUsage(g, r)
		if cost != nil {
			addCost(g, currency, *cost)
		}
	}
	if err := rows.Err(); err != nil {
		return l, err
	}
	l.Total = UsageRow{Key: "total", Label: "Total", Costs: []UsageCost{}}
	for _, g := range groups {
		l.Rows = append(l.Rows, *g)
		addUsage(&l.Total, *g)
		for _, c := range g.Costs {
			addCost(&l.Total, c.Currency, c.Amount)
		}
	}
	sortUsage(by, l.Rows)
	if l.Silent, err = s.silentAgents(ctx, lo, hi); err != nil {
		return l, err
	}
	return l, nil
}

// addUsage adds r's counts to g.
func addUsage(g *UsageRow, r UsageRow) {
	g.Turns += r.Turns
	g.WallMs += r.WallMs
	g.Reported += r.Reported
	g.TokensIn += r.TokensIn
	g.TokensOut += r.TokensOut
	g.TokensTotal += r.TokensTotal
}

// addCost adds amount in currency to g, keeping Costs ordered by currency.
func addCost(g *UsageRow, currency string, amount float64) {
	for i := range g.Costs {
		if g.Costs[i].Currency == currency {
			g.Costs[i].Amount += amount
			return
		}
	}
	g.Costs = append(g.Costs, UsageCost{Currency: currency, Amount: amount})
	sort.Slice(g.Costs, func(i, j int) bool { return g.Costs[i].Currency < g.Costs[j].Currency })
}

// sortUsage orders rows as UsageLedger.Rows says.
func sortUsage(by string, rows []UsageRow) {
	sort.Slice(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		if by != UsageByDay {
			if a.TokensTotal != b.TokensTotal {
				return a.TokensTotal > b.TokensTotal
			}
			if a.Turns != b.Turns {
				return a.Turns > b.Turns
			}
		}
		return a.Key < b.Key
	})
}

// silentAgents names the agents with turns in [lo, hi) none of which reported tokens or cost.
func (s *Store) silentAgents(ctx context.Context, lo, hi int64) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT CASE WHEN max(s.agent_name) != '' THEN max(s.agent_name)
			ELSE CASE WHEN s.agent_id != '' THEN s.agent_id ELSE 'unknown agent' END END
		`+usageTurns+`
		GROUP BY CASE WHEN s.agent_id != '' THEN s.agent_id ELSE s.agent_name END
		HAVING count(t.tokens_total) + count(t.tokens_in) + count(t.cost) = 0
		ORDER BY 1`, lo, hi)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []string{}
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return nil, err
		}
		out = append(out, name)
	}
	return out, rows.Err()
}

// ParseUsageSince reads the start of a usage range as the window and the CLI give it: "" or
// "all" (no start: the zero time), "Nd" (the last N local days, today included: local midnight
// N-1 days before now), a local date "2006-01-02" (its midnight), or an RFC 3339 time.
func ParseUsageSince(s string, now time.Time) (time.Time, error) {
	s = strings.TrimSpace(s)
	if s == "" || s == "all" {
		return time.Time{}, nil
	}
	if n, err := strconv.Atoi(strings.TrimSuffix(s, "d")); err == nil && strings.HasSuffix(s, "d") {
		if n < 1 {
			return time.Time{}, fmt.Errorf("since %q: the number of days must be at least 1", s)
		}
		y, m, d := now.In(time.Local).Date()
		return time.Date(y, m, d-(n-1), 0, 0, 0, 0, time.Local), nil
	}
	if t, err := time.ParseInLocation("2006-01-02", s, time.Local); err == nil {
		return t, nil
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	return time.Time{}, fmt.Errorf("since %q: use a date (2006-01-02), a number of days (30d) or all", s)
}
