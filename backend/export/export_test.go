package export

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/receipt"
	"agentdesk/backend/acp/schema"
	"agentdesk/backend/agents"
	"agentdesk/backend/store"
)

// Render masks every value its masker knows in either format, keeps JSON valid, ends each
// turn with its stop reason, and refuses a format it does not know.
func TestRenderMasksBothFormats(t *testing.T) {
	const secret = "tok-export-4711"
	m := agents.NewMasker()
	m.Add(secret)
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	s := store.Session{ID: "s1", Title: "deploy with " + secret, AgentName: "Demo agent", Cwd: "/src", Outcome: schema.StopEndTurn, CreatedAt: at}
	body, _ := json.Marshal(acp.Entry{ID: "u1", Kind: acp.KindUser, Turn: 1, Text: "use " + secret})
	entries := []store.Entry{{SessionID: "s1", EntryID: "u1", Turn: 1, Seq: 1, Kind: string(acp.KindUser), Text: "use " + secret, Body: body}}
	turns := []store.Turn{{SessionID: "s1", Turn: 1, Prompt: "use " + secret, StopReason: schema.StopEndTurn, EndedAt: at}}

	md, err := Render(m, s, turns, entries, nil, Markdown)
	if err != nil || !strings.HasPrefix(md, "# deploy with "+agents.Mask+"\n") || !strings.Contains(md, "*Turn 1 ended: end_turn*") {
		t.Fatalf("Markdown (%v):\n%s", err, md)
	}
	js, err := Render(m, s, turns, entries, nil, JSON)
	var doc struct {
		Title   string      `json:"title"`
		Entries []acp.Entry `json:"entries"`
	}
	if err != nil || json.Unmarshal([]byte(js), &doc) != nil || doc.Title != "deploy with "+agents.Mask || len(doc.Entries) != 1 {
		t.Fatalf("JSON (%v):\n%s", err, js)
	}
	if strings.Contains(md+js, secret) {
		t.Fatalf("an export holds the secret:\n%s\n%s", md, js)
	}
	if _, err := Render(m, s, turns, entries, nil, "pdf"); err == nil || !strings.Contains(err.Error(), "use md or json") {
		t.Fatalf("an unknown format: %v", err)
	}
}

// TestExportsKeepTheDecisions: how each permission request was answered follows its tool card
// in Markdown ("Allowed once (by you)") and is listed in JSON; one never answered is left out.
func TestExportsKeepTheDecisions(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	s := store.Session{ID: "s1", Title: "edits", AgentName: "Demo agent", Cwd: "/src", Outcome: schema.StopEndTurn, CreatedAt: at}
	tool := func(id, title string) store.Entry {
		body, _ := json.Marshal(acp.Entry{ID: id, Kind: acp.KindTool, Turn: 1, Title: title, Status: acp.StatusCompleted})
		return store.Entry{SessionID: "s1", EntryID: id, Turn: 1, Kind: string(acp.KindTool), Body: body}
	}
	entries := []store.Entry{tool("e1", "Edit NOTES.md"), tool("e2", "Run make"), tool("e3", "Delete build/")}
	turns := []store.Turn{{SessionID: "s1", Turn: 1, Prompt: "go", StopReason: schema.StopEndTurn, EndedAt: at}}
	options := []byte(`[{"id":"a","name":"Allow","kind":"allow_once"},{"id":"r","name":"Reject always","kind":"reject_always"}]`)
	perms := []store.Permission{
		{RequestID: "p1", ToolCallID: "e1", Options: options, Outcome: store.PermissionSelected, OptionID: "a", DecidedBy: acp.DecidedByUser},
		{RequestID: "p2", ToolCallID: "e2", Options: options, Outcome: store.PermissionSelected, OptionID: "r", DecidedBy: acp.DecidedByRule,
			RuleID: "rule-1", RuleLabel: "commands in /src for Demo agent"},
		{RequestID: "p3", ToolCallID: "e3", Options: options}, // never answered
	}
	md, err := Render(nil, s, turns, entries, perms, Markdown)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"> Permission: Allowed once (by you)", "> Permission: Rejected always by rule: commands in /src for Demo agent"} {
		if !strings.Contains(md, want) {
			t.Errorf("Markdown lacks %q:\n%s", want, md)
		}
	}
	if strings.Index(md, "Allowed once") < strings.Index(md, "Edit NOTES.md") || strings.Count(md, "> Permission:") != 2 {
		t.Errorf("decisions not under their cards:\n%s", md)
	}
	js, err := Render(nil, s, turns, entries, perms, JSON)
	var doc struct {
		Decisions []acp.DecisionSummary `json:"decisions"`
	}
	if err != nil || json.Unmarshal([]byte(js), &doc) != nil || len(doc.Decisions) != 2 || doc.Decisions[0].OptionKind != "allow_once" ||
		doc.Decisions[1].DecidedBy != acp.DecidedByRule || doc.Decisions[1].RuleLabel != "commands in /src for Demo agent" || doc.Decisions[0].ToolCallID != "e1" {
		t.Fatalf("JSON decisions %+v (%v)", doc.Decisions, err)
	}
}

// receiptExport renders, in format, a one-turn session whose turn the history keeps with the
// receipt stored (its JSON).
func receiptExport(t *testing.T, stored []byte, format string) string {
	t.Helper()
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	s := store.Session{ID: "s1", Title: "fix", AgentName: "Demo agent", Cwd: "/src", Outcome: schema.StopEndTurn, CreatedAt: at}
	body, _ := json.Marshal(acp.Entry{ID: "u1", Kind: acp.KindUser, Turn: 1, Text: "fix it"})
	entries := []store.Entry{{SessionID: "s1", EntryID: "u1", Turn: 1, Seq: 1, Kind: string(acp.KindUser), Text: "fix it", Body: body}}
	turns := []store.Turn{{SessionID: "s1", Turn: 1, Prompt: "fix it", StopReason: schema.StopEndTurn, EndedAt: at, Receipt: stored}}
	out, err := Render(nil, s, turns, entries, nil, format)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// receiptMarkdownWant is the Markdown of the receipt both tests below render, under its turn's end.
const receiptMarkdownWant = "*Turn 1 ended: end_turn*\n\n" +
	"**Receipt**: 1 min 35 s (12 s waiting on you); 120 tokens (100 in, 20 out); cost $0.7500\n\n" +
	"- Files changed: 1\n  - modified `a.go` (+3 −1)\n  - note: big.dat was too big to keep\n" +
	"- Commands: 2\n  - `` make `test` `` → exit 3\n  - `sleep 9` → SIGKILL\n" +
	"- Decisions: 1\n  - Write a.go: Allowed once (by you)\n" +
	"- Questions: 1\n  - Which branch? (form): accepted\n\n"

// TestExportReadsAStoredReceipt: a receipt as the history stored it before receipts had a
// package of their own (the JSON of acp.Receipt, written out here) renders as it did.
func TestExportReadsAStoredReceipt(t *testing.T) {
	stored := `{"stopReason":"end_turn","changes":{"files":[{"root":"/src","path":"a.go","change":"modified","added":3,"removed":1}],` +
		`"notes":["big.dat was too big to keep"]},"startedAt":0,"endedAt":0,"wallMs":95000,"waitMs":12000,` +
		`"commands":[{"command":"make ` + "`test`" + `","exitCode":3},{"command":"sleep 9","signal":"SIGKILL"}],` +
		`"decisions":[{"title":"Write a.go","outcome":"selected","option":"Allow","kind":"allow_once","decidedBy":"user"}],` +
		`"questions":[{"message":"Which branch?","mode":"form","state":"accepted"}],` +
		`"tokens":{"input":100,"output":20,"total":120},"cost":{"amount":0.75,"currency":"USD"}}`
	if md := receiptExport(t, []byte(stored), Markdown); !strings.HasSuffix(md, receiptMarkdownWant) {
		t.Fatalf("Markdown:\n%s\nwant it to end with\n%s", md, receiptMarkdownWant)
	}
}

// TestExportsKeepTheReceipt: each turn's receipt follows its end in Markdown (time, tokens,
// cost, files with their counts, commands with exit codes, decisions, questions) and rides on
// its turn in JSON.
func TestExportsKeepTheReceipt(t *testing.T) {
	three := 3
	stored, _ := json.Marshal(receipt.Receipt{StopReason: schema.StopEndTurn, WallMs: 95_000, WaitMs: 12_000,
		Changes: &schema.TurnChanges{Files: []schema.ChangedFile{{Root: "/src", Path: "a.go", Change: schema.ChangeModified, Added: 3, Removed: 1}},
			Notes: []string{"big.dat was too big to keep"}},
		Commands:  []receipt.Command{{Command: "make `test`", ExitCode: &three}, {Command: "sleep 9", Signal: "SIGKILL"}},
		Decisions: []receipt.Decision{{Title: "Write a.go", Outcome: "selected", Option: "Allow", Kind: "allow_once", DecidedBy: acp.DecidedByUser}},
		Questions: []receipt.Question{{Message: "Which branch?", Mode: acp.ElicitModeForm, State: acp.ElicitAccepted}},
		Tokens:    &receipt.Tokens{Input: 100, Output: 20, Total: 120}, Cost: &schema.Cost{Amount: 0.75, Currency: "USD"}})
	if md := receiptExport(t, stored, Markdown); !strings.HasSuffix(md, receiptMarkdownWant) {
		t.Fatalf("Markdown:\n%s\nwant it to end with\n%s", md, receiptMarkdownWant)
	}
	js := receiptExport(t, stored, JSON)
	var doc struct {
		Turns []acp.TurnSummary `json:"turns"`
	}
	if json.Unmarshal([]byte(js), &doc) != nil || len(doc.Turns) != 1 || doc.Turns[0].Receipt == nil ||
		len(doc.Turns[0].Receipt.Commands) != 2 || *doc.Turns[0].Receipt.Commands[0].ExitCode != 3 || doc.Turns[0].Receipt.Cost.Amount != 0.75 {
		t.Fatalf("JSON:\n%s", js)
	}
}
