package acp_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/schema"
)

// TestDemoAgentSettings: the Demo agent's config options and commands drive real behaviour, so
// the session controls can be seen working offline.
func TestDemoAgentSettings(t *testing.T) {
	s, ev := startDemo(t, 0)
	c := s.Snapshot().Controls
	if len(c.ConfigOptions) != 2 || c.ConfigOptions[0].ID != "mode" || string(c.ConfigOptions[0].CurrentValue) != `"ask"` {
		t.Fatalf("config options %+v", c.ConfigOptions)
	}
	ev.waitFor(t, "the commands", func(e acp.Event) bool { return e.Kind == acp.EventInfo && len(e.Controls.Commands) == 3 })

	// Always allow: the next turn does not ask again.
	if _, err := s.Prompt("one"); err != nil {
		t.Fatal(err)
	}
	p := ev.waitFor(t, "permission", kind(acp.EventPermission))
	if err := s.AnswerPermission(p.RequestID, "allow-always"); err != nil {
		t.Fatal(err)
	}
	ev.waitFor(t, "turn_end", kind(acp.EventTurnEnd))
	if _, err := s.Prompt("two"); err != nil {
		t.Fatal(err)
	}
	end := ev.waitFor(t, "turn_end or permission", func(e acp.Event) bool { return e.Kind == acp.EventTurnEnd || e.Kind == acp.EventPermission })
	if end.Kind != acp.EventTurnEnd || end.StopReason != schema.StopEndTurn {
		t.Fatalf("after Always allow the second turn asked again: %+v", end)
	}
	// A finished demo turn reports tokens (made up, the same for the same prompt), so its
	// receipt and the usage ledger show them offline; it reports no cost.
	if r := end.Receipt; r == nil || r.Tokens == nil || r.Tokens.Input != 1200 || r.Tokens.Output <= 0 ||
		r.Tokens.Total != r.Tokens.Input+r.Tokens.Output || r.Cost != nil {
		t.Fatalf("the demo turn's receipt: %+v", end.Receipt)
	}

	// Mode "Edit automatically" and no thinking out loud.
	ctx := context.Background()
	if err := s.SetConfigOption(ctx, "thinking", json.RawMessage(`false`)); err != nil {
		t.Fatal(err)
	}
	if err := s.SetConfigOption(ctx, "mode", json.RawMessage(`"sideways"`)); err == nil || !strings.Contains(err.Error(), "mode must be") {
		t.Fatalf("an invalid mode: %v", err)
	}
	if _, err := s.Prompt("three"); err != nil {
		t.Fatal(err)
	}
	ev.waitFor(t, "turn_end", kind(acp.EventTurnEnd))
	for _, e := range s.Snapshot().Entries {
		if e.Turn == 3 && e.Kind == acp.KindThought {
			t.Fatal("a thought was shown with thinking turned off")
		}
	}
}

// TestDemoAgentCompacts: /compact plays what real agents send when they compact their context,
// and the session shows it as one divider with the summary kept, and a notice.
func TestDemoAgentCompacts(t *testing.T) {
	s, ev := startDemo(t, 0)
	if _, err := s.Prompt("/compact"); err != nil {
		t.Fatal(err)
	}
	end := ev.waitFor(t, "turn_end", kind(acp.EventTurnEnd))
	if end.StopReason != schema.StopEndTurn {
		t.Fatalf("turn end %+v", end)
	}
	var got []acp.EntryKind
	var c *acp.Compaction
	var n *acp.Notice
	for _, e := range s.Snapshot().Entries {
		got = append(got, e.Kind)
		if e.Compaction != nil {
			c = e.Compaction
		}
		if e.Notice != nil {
			n = e.Notice
		}
	}
	if len(got) != 4 || got[1] != acp.KindCompaction || got[2] != acp.KindNotice || got[3] != acp.KindAgent {
		t.Fatalf("entries %v, want user, compaction, notice, agent", got)
	}
	if c.Status != "completed" || !strings.HasPrefix(c.Summary, "Kept: the folder") || !strings.HasSuffix(c.Summary, "Dropped: 0 turns of tool output.") {
		t.Errorf("compaction %+v", c)
	}
	if n.Severity != "info" || n.Title != "Context compacted" {
		t.Errorf("notice %+v", n)
	}
}
