package interop

import (
	"context"
	"slices"
	"strings"
	"testing"

	"agentdesk/backend/acp/schema"
)

// TestModesAndModelsArePickers: the session advertises its permission modes, the one its
// settings chose current, and its models; picking the mode that asks nothing takes effect (the
// controls say so) and its next edit is not asked for.
func TestModesAndModelsArePickers(t *testing.T) {
	each(t, func(t *testing.T, f flavour, wire *Tripwire) {
		r, _ := scripted(t, f, wire, f.ask, func(dir string, a Ask) Answer {
			if a.HasResult {
				return Say("Written.")
			}
			return f.write(dir+"/free.txt", "no question asked\n", false)
		})
		s := r.start()
		c := s.Snapshot().Controls
		if c == nil || c.Modes == nil {
			t.Fatalf("no modes advertised: %+v", c)
		}
		t.Logf("modes: current %q of %v; %d models; config options: %v", c.Modes.CurrentModeID, modeIDs(c.Modes), len(modelIDs(c.Models)), optionIDs(c.ConfigOptions))
		if c.Modes.CurrentModeID != f.ask || !slices.Contains(modeIDs(c.Modes), f.free) {
			t.Errorf("modes: current %q of %v, want %q current and %q offered", c.Modes.CurrentModeID, modeIDs(c.Modes), f.ask, f.free)
		}
		if len(modelIDs(c.Models)) == 0 && !slices.ContainsFunc(c.ConfigOptions, func(o schema.ConfigOption) bool { return o.Category == "model" }) {
			t.Errorf("no model picker: neither models nor a config option of category model")
		}
		if err := s.SetMode(context.Background(), f.free); err != nil {
			t.Fatal(err)
		}
		if got := s.Snapshot().Controls.Modes.CurrentModeID; got != f.free {
			t.Errorf("after picking %q the current mode is %q", f.free, got)
		}
		end := r.turn(s, "write free.txt", "") // a permission request fails the test
		if len(end.Receipt.Decisions) != 0 || end.Receipt.Changes == nil || !listed(end.Receipt.Changes.Files, "free.txt") {
			t.Errorf("in %q: decisions %+v, changes %+v; want none and free.txt", f.free, end.Receipt.Decisions, end.Receipt.Changes)
		}
	})
}

// TestUsageAndCostReachTheReceipt: the turn's tokens (as the model server reported them) and,
// where the agent prices them, its cost reach the receipt.
func TestUsageAndCostReachTheReceipt(t *testing.T) {
	each(t, func(t *testing.T, f flavour, wire *Tripwire) {
		r, _ := scripted(t, f, wire, f.ask, func(string, Ask) Answer { return Say("Cheap.") })
		s := r.start()
		end := r.turn(s, "how much?", "")
		tk, cost := end.Receipt.Tokens, end.Receipt.Cost
		t.Logf("tokens %+v, cost %+v", tk, cost)
		// Input counts what was not read from the cache (Codex subtracts OpenAI's cached
		// tokens from its input; Anthropic's input_tokens never held them).
		if tk == nil || tk.Input+tk.CachedRead < int64(Usage.Input) || tk.CachedRead != int64(Usage.CacheRead) || tk.Output != int64(Usage.Output) ||
			tk.Total != tk.Input+tk.Output+tk.Thought+tk.CachedRead+tk.CachedWrite {
			t.Errorf("tokens %+v, want the model's %+v", tk, Usage)
		}
		if f.priced && (cost == nil || cost.Amount <= 0 || cost.Currency != "USD") {
			t.Errorf("cost %+v, want a price in USD", cost)
		}
		if !f.priced && cost != nil {
			t.Errorf("cost %+v from an agent that prices nothing", cost)
		}
	})
}

func modeIDs(m *schema.Modes) []string {
	var ids []string
	if m != nil {
		for _, x := range m.AvailableModes {
			ids = append(ids, x.ID)
		}
	}
	return ids
}

func modelIDs(m *schema.Models) []string {
	var ids []string
	if m != nil {
		for _, x := range m.AvailableModels {
			ids = append(ids, x.ModelID)
		}
	}
	return ids
}

func optionIDs(opts []schema.ConfigOption) string {
	var ids []string
	for _, o := range opts {
		ids = append(ids, o.ID+"("+o.Category+")")
	}
	return strings.Join(ids, " ")
}
