package cli

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestShowPrintsTheReceipt: after a real demo turn, show prints its receipt under the turn's end
// in Markdown and keeps it on the turn in JSON. Against a real temp database.
func TestShowPrintsTheReceipt(t *testing.T) {
	t.Setenv("AGENTDESK_DEMO_PACE", "0s")
	db := t.TempDir() + "/cli.db"
	var out, errOut bytes.Buffer
	if code := execute(strings.NewReader(""), &out, &errOut, "run", "fix it", "--agent", "demo", "--db", db, "--permissions", "allow", "--cwd", t.TempDir()); code != ExitOK {
		t.Fatalf("run: exit %d\n%s\n%s", code, out.String(), errOut.String())
	}
	out.Reset()
	if code := execute(nil, &out, &errOut, "history", "--db", db); code != ExitOK {
		t.Fatalf("history: exit %d: %s", code, errOut.String())
	}
	id := strings.Fields(out.String())[0]
	out.Reset()
	if code := execute(nil, &out, &errOut, "show", id, "--db", db); code != ExitOK {
		t.Fatalf("show: exit %d: %s", code, errOut.String())
	}
	md := out.String()
	end := strings.Index(md, "*Turn 1 ended: end_turn*")
	if end < 0 || !strings.Contains(md[end:], "\n\n**Receipt**: ") || !strings.Contains(md[end:], "- Decisions: ") {
		t.Fatalf("show printed no receipt with decisions under the turn's end:\n%s", md)
	}
	out.Reset()
	if code := execute(nil, &out, &errOut, "show", id, "--format", "json", "--db", db); code != ExitOK {
		t.Fatalf("show --format json: exit %d: %s", code, errOut.String())
	}
	var doc struct {
		Turns []struct {
			Receipt *struct {
				StopReason string            `json:"stopReason"`
				Decisions  []json.RawMessage `json:"decisions"`
			} `json:"receipt"`
		} `json:"turns"`
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil || len(doc.Turns) != 1 || doc.Turns[0].Receipt == nil ||
		doc.Turns[0].Receipt.StopReason != "end_turn" || len(doc.Turns[0].Receipt.Decisions) == 0 {
		t.Fatalf("show --format json (%v):\n%s", err, out.String())
	}
}
