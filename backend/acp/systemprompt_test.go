package acp_test

import (
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/acptest"
	"agentdesk/backend/acp/demoagent"
)

// The house rules go as systemPrompt (append mode, one text block) on session/new, load and
// resume to an agent that advertises sessionCapabilities.systemPrompt; to one that does not they
// are not sent, one notice says so, and the window is told the agent does not take them.
func TestSystemPromptSentOnlyWhenAdvertised(t *testing.T) {
	const rules = "Use tabs.\nNever push."
	set := func(c *acp.Config) { c.SystemPrompt = rules }
	sent := func(raw json.RawMessage) (mode, text string, blocks int) {
		var p struct {
			SystemPrompt *struct {
				Mode    string `json:"mode"`
				Content []struct {
					Type, Text string
				} `json:"content"`
			} `json:"systemPrompt"`
		}
		if json.Unmarshal(raw, &p) != nil || p.SystemPrompt == nil {
			return "", "", 0
		}
		for _, b := range p.SystemPrompt.Content {
			if b.Type == "text" {
				text += b.Text
			}
		}
		return p.SystemPrompt.Mode, text, len(p.SystemPrompt.Content)
	}
	caps := `{"sessionCapabilities":{"resume":{},"systemPrompt":{"mode":{"override":{}}}}}` // override offered: append still sent
	for _, open := range []string{"session/new", "session/resume", "session/load"} {
		var seed *acp.Seed
		c := caps
		if open != "session/new" {
			seed = &acp.Seed{AgentSessionID: "m1", Title: "t"}
		}
		if open == "session/load" {
			c = `{"loadSession":true,"sessionCapabilities":{"systemPrompt":{}}}`
		}
		raw, s := openParams(t, c, seed, open, set)
		if mode, text, n := sent(raw); mode != "append" || text != rules || n != 1 {
			t.Fatalf("%s params %s: mode %q, text %q in %d blocks; want append with the rules", open, raw, mode, text, n)
		}
		if f := s.Snapshot().Controls.AgentFeatures; f == nil || !f.SystemPrompt {
			t.Fatalf("%s: the window is not told the agent takes house rules: %+v", open, f)
		}
	}
	raw, s := openParams(t, `{}`, nil, "session/new", set)
	if strings.Contains(string(raw), "systemPrompt") {
		t.Fatalf("sent to an agent that does not take them: %s", raw)
	}
	if f := s.Snapshot().Controls.AgentFeatures; f == nil || f.SystemPrompt {
		t.Fatalf("the window is told the agent takes house rules: %+v", f)
	}
	var notices int
	for _, e := range s.Snapshot().Entries {
		if e.Kind == acp.KindNotice && strings.Contains(e.Notice.Title, "does not take house rules") {
			notices++
		}
	}
	if notices != 1 {
		t.Fatalf("%d notices, want 1: %+v", notices, s.Snapshot().Entries)
	}
	raw, s = openParams(t, `{"sessionCapabilities":{"systemPrompt":{}}}`, nil, "session/new", func(*acp.Config) {})
	if strings.Contains(string(raw), "systemPrompt") || len(s.Snapshot().Entries) != 0 {
		t.Fatalf("no house rules: params %s, entries %+v", raw, s.Snapshot().Entries)
	}
}

// House rules beyond MaxSystemPrompt are cut on a character boundary before they are sent.
func TestSystemPromptIsBounded(t *testing.T) {
	long := strings.Repeat("é", acp.MaxSystemPrompt) // two bytes each
	raw, _ := openParams(t, `{"sessionCapabilities":{"systemPrompt":{}}}`, nil, "session/new", func(c *acp.Config) { c.SystemPrompt = long })
	var p struct {
		SystemPrompt struct {
			Content []struct{ Text string } `json:"content"`
		} `json:"systemPrompt"`
	}
	if err := json.Unmarshal(raw, &p); err != nil || len(p.SystemPrompt.Content) != 1 {
		t.Fatalf("params %.200s: %v", raw, err)
	}
	if got := p.SystemPrompt.Content[0].Text; len(got) > acp.MaxSystemPrompt || len(got) < acp.MaxSystemPrompt-1 || strings.ContainsRune(got, '\uFFFD') {
		t.Fatalf("sent %d bytes, want at most %d on a character boundary", len(got), acp.MaxSystemPrompt)
	}
}

// The Demo agent takes house rules and says so in its first answer, so the window's editor can be
// seen to reach an agent offline (e2e).
func TestDemoAgentTakesHouseRules(t *testing.T) {
	ev := newEvents()
	s := acp.NewSession(acp.Config{ID: "s1", AgentName: "Demo agent", Cwd: t.TempDir(), Emitter: ev, Logf: t.Logf,
		SystemPrompt: "Answer in French.\nNever push.",
		Launch: func(context.Context) (acp.Transport, error) {
			return acptest.Serve(func(in io.Reader, out io.Writer) error { return demoagent.Serve(in, out, 0) }), nil
		}})
	t.Cleanup(func() { s.Close() })
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	if f := s.Snapshot().Controls.AgentFeatures; f == nil || !f.SystemPrompt {
		t.Fatalf("the Demo agent does not advertise systemPrompt: %+v", f)
	}
	if _, err := s.Prompt("hi"); err != nil {
		t.Fatal(err)
	}
	answerNext(t, s, ev, "allow_once")
	ev.waitFor(t, "turn_end", kind(acp.EventTurnEnd))
	found := false
	for _, e := range s.Snapshot().Entries {
		found = found || e.Kind == acp.KindAgent && strings.Contains(e.Text, `the first says: "Answer in French."`)
	}
	if !found {
		t.Fatalf("the Demo agent did not acknowledge the house rules: %+v", s.Snapshot().Entries)
	}
}
