package export

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"strconv"
	"strings"

	"agentdesk/backend/agents"
	"agentdesk/backend/store"
)

// UsageCSV renders a usage ledger as CSV (RFC 4180, a header row first, then one row per group
// and a last "total" row): key, label, agent, turns, wall_ms, reported_turns, tokens_in,
// tokens_out, tokens_total, then one cost column per currency of the ledger ("cost_USD";
// "cost" for a cost reported without a currency). mask masks every text field (nil: none).
// A field a spreadsheet would run as a formula (starting with = + - @, a tab or a carriage
// return) is prefixed with a quote (') so it stays text.
func UsageCSV(mask *agents.Masker, l store.UsageLedger) ([]byte, error) {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	currencies := l.Total.Costs
	header := []string{"key", "label", "agent", "turns", "wall_ms", "reported_turns", "tokens_in", "tokens_out", "tokens_total"}
	for _, c := range currencies {
		if c.Currency == "" {
			header = append(header, "cost")
		} else {
			header = append(header, "cost_"+c.Currency)
		}
	}
	if err := w.Write(header); err != nil {
		return nil, fmt.Errorf("write usage CSV: %w", err)
	}
	text := func(s string) string {
		if mask != nil {
			s = mask.Mask(s)
		}
		if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
			s = "'" + s
		}
		return s
	}
	for _, r := range append(append([]store.UsageRow(nil), l.Rows...), l.Total) {
		rec := []string{text(r.Key), text(r.Label), text(r.Agent), strconv.Itoa(r.Turns),
			strconv.FormatInt(r.WallMs, 10), strconv.Itoa(r.Reported), strconv.FormatInt(r.TokensIn, 10),
			strconv.FormatInt(r.TokensOut, 10), strconv.FormatInt(r.TokensTotal, 10)}
		for _, c := range currencies {
			amount := ""
			for _, rc := range r.Costs {
				if rc.Currency == c.Currency {
					amount = strconv.FormatFloat(rc.Amount, 'f', -1, 64)
				}
			}
			rec = append(rec, amount)
		}
		if err := w.Write(rec); err != nil {
			return nil, fmt.Errorf("write usage CSV: %w", err)
		}
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return nil, fmt.Errorf("write usage CSV: %w", err)
	}
	return buf.Bytes(), nil
}
