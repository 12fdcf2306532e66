package export

import (
	"encoding/csv"
	"reflect"
	"strings"
	"testing"

	"agentdesk/backend/agents"
	"agentdesk/backend/store"
)

func TestUsageCSVHasOneColumnPerCurrencyAndKeepsLabelsText(t *testing.T) {
	m := agents.NewMasker()
	m.Add("sk-secret-value-1234")
	l := store.UsageLedger{By: store.UsageBySession,
		Rows: []store.UsageRow{
			{Key: "s1", Label: "fix, \"quoted\"\nand sk-secret-value-1234", Agent: "Claude", Turns: 2, WallMs: 5000, Reported: 2,
				TokensIn: 300, TokensOut: 150, TokensTotal: 450, Costs: []store.UsageCost{{Currency: "USD", Amount: 0.75}}},
			{Key: "s2", Label: "=HYPERLINK(\"http://x\")", Agent: "@quiet", Turns: 1, WallMs: 1000},
		},
		Total: store.UsageRow{Key: "total", Label: "Total", Turns: 3, WallMs: 6000, Reported: 2, TokensIn: 300, TokensOut: 150,
			TokensTotal: 450, Costs: []store.UsageCost{{Currency: "", Amount: 0.1}, {Currency: "USD", Amount: 0.75}}},
	}
	b, err := UsageCSV(m, l)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "sk-secret-value-1234") {
		t.Errorf("secret in CSV:\n%s", b)
	}
	recs, err := csv.NewReader(strings.NewReader(string(b))).ReadAll()
	if err != nil {
		t.Fatalf("CSV does not parse: %v\n%s", err, b)
	}
	want := [][]string{
		{"key", "label", "agent", "turns", "wall_ms", "reported_turns", "tokens_in", "tokens_out", "tokens_total", "cost", "cost_USD"},
		{"s1", recs[1][1], "Claude", "2", "5000", "2", "300", "150", "450", "", "0.75"},
		{"s2", "'=HYPERLINK(\"http://x\")", "'@quiet", "1", "1000", "0", "0", "0", "0", "", ""},
		{"total", "Total", "", "3", "6000", "2", "300", "150", "450", "0.1", "0.75"},
	}
	if !reflect.DeepEqual(recs, want) {
		t.Errorf("records =\n%q\nwant\n%q", recs, want)
	}
	if !strings.HasPrefix(recs[1][1], "fix, \"quoted\"\nand ") {
		t.Errorf("label = %q: commas, quotes and newlines must survive", recs[1][1])
	}
}

func TestUsageCSVEmptyLedger(t *testing.T) {
	b, err := UsageCSV(nil, store.UsageLedger{Total: store.UsageRow{Key: "total", Label: "Total"}})
	if err != nil || string(b) != "key,label,agent,turns,wall_ms,reported_turns,tokens_in,tokens_out,tokens_total\ntotal,Total,,0,0,0,0,0,0\n" {
		t.Errorf("empty = %q, %v", b, err)
	}
}
