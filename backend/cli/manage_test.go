package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"agentdesk/backend/agents"
)

// TestCLIManage: history --json lists a saved session for a script, export writes it to a
// file in either format, delete asks first and keeps it on no, deletes it with --yes; agents
// lists the Demo agent as installed.
func TestCLIManage(t *testing.T) {
	isolatedConfig(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "m.db")
	self, _ := os.Executable()
	var out, errOut bytes.Buffer
	cli := func(want int, in string, args ...string) string {
		t.Helper()
		out.Reset()
		errOut.Reset()
		if code := execute(strings.NewReader(in), &out, &errOut, args...); code != want {
			t.Fatalf("%q: exit %d, want %d\n%s%s", args, code, want, out.String(), errOut.String())
		}
		return out.String()
	}
	cli(0, "", "run", "--db", db, "--agent-cmd", "'"+self+"' demo-agent --pace 0s", "--permissions", "reject", "--cwd", dir, "manage me")
	var items []historyItem
	if err := json.Unmarshal([]byte(cli(0, "", "history", "--db", db, "--json")), &items); err != nil || len(items) != 1 ||
		items[0].Title != "manage me" || items[0].Turns != 1 {
		t.Fatalf("history --json: %+v (%v)", items, err)
	}
	id := items[0].ID
	cli(0, "", "export", "--db", db, id[:8], "-o", filepath.Join(dir, "s"))
	if b, err := os.ReadFile(filepath.Join(dir, "s.md")); err != nil || !strings.HasPrefix(string(b), "# manage me") {
		t.Errorf("export md: %q, %v", b, err)
	}
	cli(0, "", "export", "--db", db, id, "--format", "json", "-o", filepath.Join(dir, "s.json"))
	if b, _ := os.ReadFile(filepath.Join(dir, "s.json")); !json.Valid(b) {
		t.Errorf("export json is not JSON: %.100s", b)
	}
	cli(2, "", "export", "--db", db, id, "--format", "pdf")

	cli(1, "n\n", "delete", "--db", db, id[:8])
	if !strings.Contains(errOut.String(), `Delete "manage me"`) || !strings.Contains(errOut.String(), "nothing was deleted") {
		t.Errorf("delete's question: %s", errOut.String())
	}
	cli(0, "", "delete", "--db", db, id[:8], "--yes")
	if left := cli(0, "", "history", "--db", db, "--json"); strings.TrimSpace(left) != "[]" {
		t.Errorf("after delete: %s", left)
	}

	var list []agents.Agent
	if err := json.Unmarshal([]byte(cli(0, "", "agents", "--json")), &list); err != nil || len(list) == 0 || list[0].ID != "demo" || !list[0].Available {
		t.Errorf("agents --json: %+v (%v)", list, err)
	}
	if table := cli(0, "", "agents"); !strings.Contains(table, "Demo agent") || !strings.Contains(table, "INSTALLED") {
		t.Errorf("agents:\n%s", table)
	}
}
