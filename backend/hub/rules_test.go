package hub

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"agentdesk/backend/acp"
	"agentdesk/backend/agents"
	"agentdesk/backend/rules"
	"agentdesk/backend/store"
)

// List lets the hub name the agents of rules (agentName).
func (l agentList) List() []agents.Agent { return l }

// readRequest is a scripted session/request_permission for a read of path, answered with want.
func readRequest(id, path, want string) string {
	return `{"call":"session/request_permission","params":{"toolCall":{"toolCallId":"` + id + `","title":"Read ` + path +
		`","kind":"read","locations":[{"path":"` + path + `"}]},"options":[{"optionId":"a1","name":"Allow","kind":"allow_once"},` +
		`{"optionId":"aa","name":"Always","kind":"allow_always"},{"optionId":"r1","name":"Reject","kind":"reject_once"}]},"want":"` + want + `"}`
}

// ruleSession starts agent "a" (named Scripted) on script in base with a fresh history.
func ruleSession(t *testing.T, base, script string) (*Hub, *store.Store, *acp.Session, chan acp.Event) {
	t.Helper()
	st := openTestStore(t, filepath.Join(base, "history.db"))
	t.Cleanup(func() { st.Close() })
	a := scriptAgent(t, base, "a", script)
	a.Name = "Scripted"
	h := New(st, agentList{a}, t.Logf)
	evs := make(chan acp.Event, 512)
	s, _, err := h.Start(StartRequest{AgentID: "a", Cwd: base}, acp.EmitterFunc(func(ev acp.Event) { evs <- ev }))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close(context.Background(), s.ID()) }) // before the store closes: its logf is t's
	waitFor(t, evs, func(ev acp.Event) bool { return ev.Kind == acp.EventState && ev.State == acp.StateIdle })
	return h, st, s, evs
}

// TestRuleAnswersBeforeAPrompt: a rule for reads in the project answers a read inside it with
// the agent's allow_once option before any prompt is shown, says so in the transcript the first
// time, counts the firing and is in the audit log; a read outside the folder is asked.
func TestRuleAnswersBeforeAPrompt(t *testing.T) {
	base := t.TempDir()
	sc := `[` + handshake + `
 {"expect":"session/prompt"},
 ` + readRequest("t1", filepath.Join(base, "src", "a.go"), "a1") + `,
 ` + readRequest("t2", "src/b.go", "a1") + `,
 ` + readRequest("t3", "/etc/passwd", "r1") + `,
 {"reply":{"stopReason":"end_turn"}}]`
	h, st, s, evs := ruleSession(t, base, sc)
	ctx := context.Background()
	rule, err := h.SaveRule(ctx, rules.Rule{AgentID: "a", Folder: base, Kind: "read", Decision: rules.Allow})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Prompt("go"); err != nil {
		t.Fatal(err)
	}
	var asked []string
	var byRule []acp.Event
	notices := 0
	for done := false; !done; {
		ev := waitFor(t, evs, func(acp.Event) bool { return true })
		switch {
		case ev.Kind == acp.EventPermission:
			asked = append(asked, ev.Title)
			if err := s.AnswerPermission(ev.RequestID, "r1"); err != nil {
				t.Fatal(err)
			}
		case ev.Kind == acp.EventPermissionDone && ev.Decision.DecidedBy == acp.DecidedByRule:
			byRule = append(byRule, ev)
		case ev.Kind == acp.EventEntry && ev.Entry.Kind == acp.KindNotice && strings.Contains(ev.Entry.Notice.Title, "rule"):
			notices++
		case ev.Kind == acp.EventTurnEnd:
			done = true
		}
	}
	if len(asked) != 1 || !strings.Contains(asked[0], "/etc/passwd") {
		t.Errorf("asked %q, want only the read outside the folder", asked)
	}
	wantLabel := "reads in " + rules.Home(base, h.rules.home) + " for Scripted"
	if len(byRule) != 2 || byRule[0].Decision.RuleID != rule.ID || byRule[0].Decision.RuleLabel != wantLabel || byRule[0].Decision.OptionID != "a1" {
		t.Fatalf("rule decisions %+v, want two by %s (%q)", byRule, rule.ID, wantLabel)
	}
	if notices != 1 {
		t.Errorf("%d notices of the rule, want 1 (the first time it fires in the session)", notices)
	}
	if err := h.Close(ctx, s.ID()); err != nil {
		t.Fatal(err)
	}
	list, err := h.Rules(ctx)
	if err != nil || len(list.Rules) != 1 || list.Rules[0].Fired != 2 || list.Rules[0].LastFiredAt == "" {
		t.Fatalf("rules %+v (%v), want one fired twice", list, err)
	}
	audit, err := h.Audit(ctx, store.AuditQuery{})
	if err != nil || len(audit) != 3 {
		t.Fatalf("audit %+v (%v), want 3 decisions", audit, err)
	}
	by := map[string]int{}
	for _, a := range audit {
		by[a.DecidedBy+" "+a.Verdict]++
		if a.DecidedBy == "rule" && (a.RuleLabel != wantLabel || a.ToolKind != "read" || a.AgentName != "Scripted") {
			t.Errorf("rule's audit row %+v", a)
		}
	}
	if by["rule allowed"] != 2 || by["person rejected"] != 1 {
		t.Errorf("audit by who and verdict %v", by)
	}
	if onlyRule, _ := h.Audit(ctx, store.AuditQuery{DecidedBy: "rule", RuleID: rule.ID}); len(onlyRule) != 2 {
		t.Errorf("audit filtered on the rule: %d rows, want 2", len(onlyRule))
	}
	perms, _ := st.Permissions(ctx, s.ID())
	if d := Decisions(perms); len(d) != 3 || d[0].RuleLabel != wantLabel {
		t.Errorf("a reopened session's decisions %+v, want the rule's words on the first", d)
	}
}

// TestMakeRuleFromACard: the rule a shown request offers is made from it, answers that request
// as the person's, and answers the next matching request without showing it; paused, every
// rule asks again.
func TestMakeRuleFromACard(t *testing.T) {
	base := t.TempDir()
	sc := `[` + handshake + `
 {"expect":"session/prompt"},
 ` + readRequest("t1", "src/a.go", "a1") + `,
 ` + readRequest("t2", "src/deep/b.go", "a1") + `,
 {"reply":{"stopReason":"end_turn"}},
 {"expect":"session/prompt"},
 ` + readRequest("t3", "src/c.go", "r1") + `,
 {"reply":{"stopReason":"end_turn"}}]`
	h, _, s, evs := ruleSession(t, base, sc)
	ctx := context.Background()
	if _, err := s.Prompt("go"); err != nil {
		t.Fatal(err)
	}
	first := waitFor(t, evs, func(ev acp.Event) bool { return ev.Kind == acp.EventPermission })
	scopes := map[string]string{}
	for _, o := range first.RuleOptions {
		scopes[o.Scope+" "+o.Decision] = o.Label
	}
	if scopes["folder allow"] != "reads of src/** in "+rules.Home(base, h.rules.home)+" for Scripted" || scopes["kind reject"] == "" {
		t.Fatalf("offered rules %v", scopes)
	}
	made, err := h.MakeRule(ctx, s.ID(), first.RequestID, "folder", rules.Allow)
	if err != nil || made.Path != "src/**" || made.Decision != rules.Allow {
		t.Fatalf("made %+v (%v)", made, err)
	}
	done := waitFor(t, evs, func(ev acp.Event) bool { return ev.Kind == acp.EventPermissionDone })
	if done.Decision.DecidedBy != acp.DecidedByUser || done.Decision.OptionID != "a1" {
		t.Errorf("the card's own request: %+v, want allowed once by the person", done)
	}
	second := waitFor(t, evs, func(ev acp.Event) bool {
		return ev.Kind == acp.EventPermission || ev.Kind == acp.EventPermissionDone
	})
	if second.Kind != acp.EventPermissionDone || second.Decision.RuleID != made.ID {
		t.Fatalf("the next read: %+v, want answered by the rule", second)
	}
	waitFor(t, evs, func(ev acp.Event) bool { return ev.Kind == acp.EventTurnEnd })
	if err := h.SetRulesPaused(ctx, true); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Prompt("again"); err != nil {
		t.Fatal(err)
	}
	third := waitFor(t, evs, func(ev acp.Event) bool {
		return ev.Kind == acp.EventPermission || ev.Kind == acp.EventPermissionDone
	})
	if third.Kind != acp.EventPermission {
		t.Fatalf("with rules paused: %+v, want asked", third)
	}
	if err := s.AnswerPermission(third.RequestID, "r1"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, evs, func(ev acp.Event) bool { return ev.Kind == acp.EventTurnEnd })
	if l, _ := h.Rules(ctx); !l.Paused {
		t.Error("the pause is not listed")
	}
}

// TestRulesFileRoundTrip: exported rules import into another history as they were; a file
// with one invalid rule imports none and names it.
func TestRulesFileRoundTrip(t *testing.T) {
	ctx := context.Background()
	base := t.TempDir()
	one := openTestStore(t, filepath.Join(base, "one.db"))
	defer one.Close()
	h := New(one, agentList{}, t.Logf)
	for _, r := range []rules.Rule{{Kind: "execute", Command: "go test", Decision: rules.Allow},
		{AgentID: "x", Folder: base, Path: "secrets/**", Decision: rules.Reject, Disabled: true}} {
		if _, err := h.SaveRule(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	data, err := h.ExportRules(ctx)
	if err != nil {
		t.Fatal(err)
	}
	two := openTestStore(t, filepath.Join(base, "two.db"))
	defer two.Close()
	h2 := New(two, agentList{}, t.Logf)
	if n, err := h2.ImportRules(ctx, data); err != nil || n != 2 {
		t.Fatalf("import: %d, %v", n, err)
	}
	a, _ := h.Rules(ctx)
	b, _ := h2.Rules(ctx)
	if len(b.Rules) != 2 || a.Rules[1].Label != b.Rules[1].Label || !b.Rules[1].Disabled || b.Rules[0].Command != "go test" {
		t.Fatalf("imported %+v, exported %+v", b.Rules, a.Rules)
	}
	bad := strings.Replace(string(data), `"go test"`, `"go test; rm -rf ~"`, 1)
	if n, err := h2.ImportRules(ctx, []byte(bad)); err == nil || n != 0 || !strings.Contains(err.Error(), "rule 1 of the file") {
		t.Fatalf("a file with a command that chains: %d, %v", n, err)
	}
}
