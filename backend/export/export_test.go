package export

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"agentdesk/backend/acp"
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
	s := store.Session{ID: "s1", Title: "deploy with " + secret, AgentName: "Demo agent", Cwd: "/src", Outcome: acp.StopEndTurn, CreatedAt: at}
	body, _ := json.Marshal(acp.Entry{ID: "u1", Kind: acp.KindUser, Turn: 1, Text: "use " + secret})
	entries := []store.Entry{{SessionID: "s1", EntryID: "u1", Turn: 1, Seq: 1, Kind: string(acp.KindUser), Text: "use " + secret, Body: body}}
	turns := []store.Turn{{SessionID: "s1", Turn: 1, Prompt: "use " + secret, StopReason: acp.StopEndTurn, EndedAt: at}}

	md, err := Render(m, s, turns, entries, Markdown)
	if err != nil || !strings.HasPrefix(md, "# deploy with "+agents.Mask+"\n") || !strings.Contains(md, "*Turn 1 ended: end_turn*") {
		t.Fatalf("Markdown (%v):\n%s", err, md)
	}
	js, err := Render(m, s, turns, entries, JSON)
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
	if _, err := Render(m, s, turns, entries, "pdf"); err == nil || !strings.Contains(err.Error(), "use md or json") {
		t.Fatalf("an unknown format: %v", err)
	}
}
