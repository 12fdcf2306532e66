package hub

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"agentdesk/backend/acp"
	"agentdesk/backend/store"
)

// House rules saved for an agent in a folder reach session/new of the next session there as
// systemPrompt, and are saved in the journal as sent; rules over the bound or for a missing
// folder are refused with words that say what to do, and blank ones delete them.
func TestHouseRulesReachTheNextSession(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	h, st := scriptHub(t, dir, `[{"expect":"initialize"},
 {"reply":{"protocolVersion":1,"agentCapabilities":{"sessionCapabilities":{"systemPrompt":{}}}}},
 {"expect":"session/new"}, {"reply":{"sessionId":"m1"}}]`)
	defer h.CloseAll(context.Background())

	if _, err := h.SetHouseRules(ctx, "a", dir, strings.Repeat("x", acp.MaxSystemPrompt+1)); err == nil || !strings.Contains(err.Error(), "shorten") {
		t.Fatalf("rules over the bound: %v", err)
	}
	if _, err := h.SetHouseRules(ctx, "a", filepath.Join(dir, "gone"), "x"); err == nil || !strings.Contains(err.Error(), "gone") {
		t.Fatalf("rules for a missing folder: %v", err)
	}
	saved, err := h.SetHouseRules(ctx, "a", dir+"/", "Answer in French.\r\nNever push.")
	if err != nil || saved.Text != "Answer in French.\nNever push." || saved.Folder != dir || saved.Saved == "" {
		t.Fatalf("saved %+v, %v", saved, err)
	}
	s, _ := idleSession(t, h, dir)
	newLine := savedRequest(t, st, s.ID(), "session/new")
	if !strings.Contains(newLine, `"systemPrompt":{"mode":"append","content":[{"type":"text","text":"Answer in French.\nNever push."}]}`) {
		t.Fatalf("session/new as saved does not carry the house rules: %s", newLine)
	}
	if cleared, err := h.SetHouseRules(ctx, "a", dir, "  \n"); err != nil || cleared.Text != "" || cleared.Saved != "" {
		t.Fatalf("blank rules: %+v, %v", cleared, err)
	}
}

// savedRequest is the line of session id's request method as the history's journal saved it
// (flushed first), "" when there is none.
func savedRequest(t *testing.T, st *store.Store, id, method string) string {
	t.Helper()
	ctx := context.Background()
	if err := st.Writer().Flush(ctx); err != nil {
		t.Fatal(err)
	}
	msgs, err := st.Messages(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	line := ""
	for _, m := range msgs {
		if m.Method == method && strings.Contains(string(m.JSON), `"params"`) {
			line = string(m.JSON)
		}
	}
	return line
}
