package interop

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"agentdesk/backend/acp"
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
			return f.write(filepath.Join(dir, "free.txt"), "no question asked\n", false)
		})
		s := r.start()
		c := s.Snapshot().Controls
		current, ids, set := modePicker(t, s)
		t.Logf("modes: current %q of %v; %d models; config options: %v", current, ids, len(modelIDs(c.Models)), optionIDs(c.ConfigOptions))
		if current != f.ask || !slices.Contains(ids, f.free) {
			t.Errorf("modes: current %q of %v, want %q current and %q offered", current, ids, f.ask, f.free)
		}
		if len(modelIDs(c.Models)) == 0 && !slices.ContainsFunc(c.ConfigOptions, func(o schema.ConfigOption) bool { return o.Category == "model" }) {
			t.Errorf("no model picker: neither models nor a config option of category model")
		}
		if err := set(f.free); err != nil {
			t.Fatal(err)
		}
		if got, _, _ := modePicker(t, s); got != f.free {
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
		if tk == nil || tk.Input+tk.CachedRead < int64(Usage.Input) || (tk.CachedRead != int64(Usage.CacheRead) && !f.cacheless) || tk.Output != int64(Usage.Output) ||
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

// modePicker is s's mode picker as the window shows it: the config option of category mode
// when the agent sends one (opencode's only kind), else the legacy modes; its current mode, the
// modes offered and how to pick one. No picker fails the test.
func modePicker(t *testing.T, s *acp.Session) (current string, ids []string, set func(string) error) {
	t.Helper()
	c := s.Snapshot().Controls
	if c != nil {
		for _, o := range c.ConfigOptions {
			if o.Category != "mode" {
				continue
			}
			var opts []struct{ Value string }
			_ = json.Unmarshal(o.Options, &opts)
			for _, x := range opts {
				ids = append(ids, x.Value)
			}
			_ = json.Unmarshal(o.CurrentValue, &current)
			return current, ids, func(id string) error {
				value, _ := json.Marshal(id)
				return s.SetConfigOption(context.Background(), o.ID, value)
			}
		}
	}
	if c == nil || c.Modes == nil {
		t.Fatalf("no modes advertised: %+v", c)
	}
	return c.Modes.CurrentModeID, modeIDs(c.Modes), func(id string) error { return s.SetMode(context.Background(), id) }
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
