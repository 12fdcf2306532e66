package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"agentdesk/backend/hub"
)

// rulesTurn plays an agent whose turn asks three permissions, each after the last was answered:
// a read in the project, `go test` and a read outside the project, and checks each answer.
func rulesTurn(proj string) string {
	req := func(id, title, kind, input, want string) string {
		return `{"call":"session/request_permission","params":{"toolCall":{"toolCallId":"` + id + `","title":"` + title +
			`","kind":"` + kind + `","rawInput":` + input + `},"options":[{"optionId":"a1","name":"Allow","kind":"allow_once"},` +
			`{"optionId":"r1","name":"Reject","kind":"reject_once"}]},"want":"` + want + `"}`
	}
	return "[" + handshake + `
	{"expect":"session/prompt"},
	` + req("t1", "Read a.go", "read", `{"file_path":"`+filepath.Join(proj, "a.go")+`"}`, "a1") + `,
	` + req("t2", "go test", "execute", `{"command":"go test ./..."}`, "r1") + `,
	` + req("t3", "Read hosts", "read", `{"file_path":"/etc/hosts"}`, "r1") + `,
	{"reply":{"stopReason":"end_turn"}}]`
}

// TestCLIRulesRoundTrip: rules added on the command line answer a run's requests before
// --permissions does (which answers only the rest), each decision is in the audit log with who
// made it, and the rules survive export, removal and import.
func TestCLIRulesRoundTrip(t *testing.T) {
	isolatedConfig(t)
	dir, proj := t.TempDir(), t.TempDir()
	db := filepath.Join(dir, "r.db")
	var out, errOut bytes.Buffer
	cli := func(want int, args ...string) string {
		t.Helper()
		out.Reset()
		errOut.Reset()
		if code := execute(strings.NewReader(""), &out, &errOut, args...); code != want {
			t.Fatalf("%q: exit %d, want %d\n%s%s", args, code, want, out.String(), errOut.String())
		}
		return out.String() + errOut.String()
	}
	cli(0, "rules", "add", "--db", db, "--agent", "any", "--folder", proj, "--kind", "read", "--allow")
	cli(0, "rules", "add", "--db", db, "--agent", "any", "--folder", proj, "--kind", "execute", "--command", "go test", "--reject")
	if msg := cli(1, "rules", "add", "--db", db, "--agent", "nosuch", "--folder", proj, "--kind", "read", "--allow"); !strings.Contains(msg, `"nosuch" is not an agent here`) {
		t.Errorf("an unknown agent: %s", msg)
	}
	if msg := cli(1, "rules", "add", "--db", db, "--agent", "any", "--folder", proj, "--kind", "execute", "--command", "go test && rm -rf ~", "--allow"); !strings.Contains(msg, "must be plain words") {
		t.Errorf("a chained command prefix: %s", msg)
	}
	cli(2, "rules", "add", "--db", db, "--agent", "any", "--folder", proj, "--kind", "read") // neither --allow nor --reject

	script := filepath.Join(dir, "turn.json")
	os.WriteFile(script, []byte(rulesTurn(proj)), 0o600)
	self, _ := os.Executable()
	ran := cli(0, "run", "--db", db, "--agent-cmd", "'"+self+"' demo-agent --script "+script, "--cwd", proj, "--permissions", "reject", "go")
	for _, want := range []string{"[permission] Read a.go: chose a1 by rule: reads in " + proj + " for any agent",
		"[permission] go test: chose r1 by rule: commands starting `go test` in " + proj + " for any agent"} {
		if !strings.Contains(ran, want) {
			t.Errorf("run lacks %q:\n%s", want, ran)
		}
	}

	var items []hub.AuditItem
	for _, line := range strings.Split(strings.TrimSpace(cli(0, "audit", "--db", db, "--json")), "\n") {
		var it hub.AuditItem
		if err := json.Unmarshal([]byte(line), &it); err != nil {
			t.Fatalf("audit line %q: %v", line, err)
		}
		items = append(items, it)
	}
	got := []string{}
	for _, it := range items {
		got = append(got, it.Title+" "+it.Verdict+" by "+it.DecidedBy)
	}
	if want := "Read hosts rejected by cli|go test rejected by rule|Read a.go allowed by rule"; strings.Join(got, "|") != want {
		t.Errorf("audit %q, want %q", strings.Join(got, "|"), want)
	}
	if table := cli(0, "audit", "--db", db, "--decided-by", "rule"); strings.Count(table, "rule: ") != 2 || strings.Contains(table, "Read hosts") {
		t.Errorf("audit --decided-by rule:\n%s", table)
	}

	list := cli(0, "rules", "list", "--db", db)
	if strings.Count(list, "  1  ") != 2 {
		t.Errorf("each rule fired once:\n%s", list)
	}
	exported := filepath.Join(dir, "rules.json")
	cli(0, "rules", "export", "--db", db, "-o", exported)
	var listed hub.RuleList
	json.Unmarshal([]byte(cli(0, "rules", "list", "--db", db, "--json")), &listed)
	for _, r := range listed.Rules {
		cli(0, "rules", "rm", "--db", db, r.ID[:8])
	}
	if empty := cli(0, "rules", "list", "--db", db); !strings.Contains(empty, "No rules yet") {
		t.Errorf("after rm:\n%s", empty)
	}
	if msg := cli(0, "rules", "import", "--db", db, exported); !strings.Contains(msg, "imported 2 rule(s)") {
		t.Errorf("import: %s", msg)
	}
	var again hub.RuleList
	json.Unmarshal([]byte(cli(0, "rules", "list", "--db", db, "--json")), &again)
	if len(again.Rules) != 2 || again.Rules[0].Label != listed.Rules[0].Label || again.Rules[1].Decision != "reject" {
		t.Errorf("imported %+v, exported %+v", again.Rules, listed.Rules)
	}
	cli(0, "rules", "pause", "--db", db)
	if paused := cli(0, "rules", "list", "--db", db); !strings.Contains(paused, "Rules are paused") {
		t.Errorf("after pause:\n%s", paused)
	}
}
