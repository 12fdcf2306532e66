package store

import (
	"context"
	"testing"
	"time"

	"agentdesk/backend/rules"
)

// A history written before migration 0011 keeps its permission rows (ids, decisions) through the
// table's rebuild, and they read as decisions of the person, of --permissions (then "rule") and
// of Stop, with no tool kind.
func TestRulesMigrationKeepsOldDecisions(t *testing.T) {
	path, db := dbAtVersion(t, 10)
	for _, q := range []string{
		`INSERT INTO sessions (id, agent_id, agent_name, cwd, created_at, updated_at) VALUES ('old', 'a', 'Old', '/x', 0, 0)`,
		`INSERT INTO permissions (id, session_id, turn, request_id, tool_call_id, title, options, requested_at, outcome, option_id, decided_by, decided_at)
		 VALUES (7, 'old', 1, '0', 'e1', 'Edit a', '[{"id":"y","name":"Yes","kind":"allow_once"}]', 1000, 'selected', 'y', 'user', 2000),
		        (8, 'old', 1, '1', 'e2', 'Run b', '[{"id":"n","name":"No","kind":"reject_once"}]', 3000, 'selected', 'n', 'rule', 4000),
		        (9, 'old', 2, '2', 'e3', 'Read c', '[]', 5000, 'cancelled', NULL, 'cancel', 6000)`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	db.Close()
	s := openTestAt(t, path)
	rows, err := s.Audit(context.Background(), AuditQuery{})
	if err != nil || len(rows) != 3 {
		t.Fatalf("audit %+v, %v", rows, err)
	}
	got := []string{}
	for _, r := range rows {
		got = append(got, r.Title+":"+r.Verdict()+":"+r.DecidedBy+":"+r.OptionName)
	}
	if want := "Read c:cancelled:cancel:|Run b:rejected:rule:No|Edit a:allowed:user:Yes"; join(got) != want {
		t.Errorf("audit %q, want %q", join(got), want)
	}
	var id int
	if err := s.db.QueryRow(`SELECT id FROM permissions WHERE request_id = '1'`).Scan(&id); err != nil || id != 8 {
		t.Errorf("row id %d (%v), want 8 kept", id, err)
	}
}

func join(ss []string) string {
	out := ""
	for i, s := range ss {
		if i > 0 {
			out += "|"
		}
		out += s
	}
	return out
}

// Rules keep their order, counts and the pause; an edit keeps the counts; a bad rule in a batch
// saves none; the audit filters by project folder and outcome.
func TestRulesAndAudit(t *testing.T) {
	s := openTest(t)
	ctx := context.Background()
	if err := s.SaveRules(ctx, []rules.Rule{{ID: "b", Kind: "read", Decision: rules.Allow}, {ID: "a", Kind: "edit", Decision: rules.Reject}}); err != nil {
		t.Fatal(err)
	}
	w := s.Writer()
	at := time.UnixMilli(5_000_000)
	w.RuleFired("b", at)
	w.RuleFired("b", at.Add(-time.Hour)) // out of order: the last firing stays the latest
	w.RuleFired("gone", at)              // a deleted rule: nothing
	if err := s.SaveRules(ctx, []rules.Rule{{ID: "b", Kind: "read", Path: "src/**", Decision: rules.Allow}}); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveRules(ctx, []rules.Rule{{ID: "c", Decision: rules.Allow}, {ID: "d", Decision: "sometimes"}}); err == nil {
		t.Error("a batch with an invalid rule was saved")
	}
	flush(t, s.Store)
	rs, err := s.Rules(ctx)
	if err != nil || len(rs) != 2 || rs[0].ID != "b" || rs[0].Fired != 2 || !rs[0].LastFiredAt.Equal(at) || rs[0].Path != "src/**" {
		t.Fatalf("rules %+v, %v", rs, err)
	}
	if err := s.DeleteRule(ctx, "zzz"); err == nil {
		t.Error("deleting a missing rule succeeded")
	}
	if err := s.SetPreference(ctx, "rules.paused", "true"); err != nil {
		t.Fatal(err)
	}
	if v, ok, err := s.Preference(ctx, "rules.paused"); v != "true" || !ok || err != nil {
		t.Errorf("preference %q %v %v", v, ok, err)
	}

	w.CreateSession(Session{ID: "s1", AgentID: "a", Cwd: "/src/app"})
	w.CreateSession(Session{ID: "s2", AgentID: "a", Cwd: "/src/apple"})
	opts := []byte(`[{"id":"y","name":"Yes","kind":"allow_once"}]`)
	for _, sid := range []string{"s1", "s2"} {
		w.RequestPermission(Permission{SessionID: sid, RequestID: "0", Options: opts, Outcome: PermissionSelected, OptionID: "y",
			DecidedBy: DecidedByRule, RuleID: "b", RuleLabel: "reads", ToolKind: "read"})
	}
	flush(t, s.Store)
	if rows, err := s.Audit(ctx, AuditQuery{Folder: "/src/app/"}); err != nil || len(rows) != 1 || rows[0].SessionID != "s1" {
		t.Errorf("audit of /src/app: %+v, %v (not /src/apple)", rows, err)
	}
	if rows, _ := s.Audit(ctx, AuditQuery{Outcome: "rejected"}); len(rows) != 0 {
		t.Errorf("rejected: %+v", rows)
	}
	if _, err := s.Audit(ctx, AuditQuery{DecidedBy: "robot"}); err == nil {
		t.Error("an unknown decided-by was accepted")
	}
}
