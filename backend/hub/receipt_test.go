package hub

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/receipt"
	"agentdesk/backend/agents"
)

// maskedAgents is a fixed list of agents whose masker knows secret values.
type maskedAgents struct {
	agentList
	m *agents.Masker
}

func (l maskedAgents) Masker() *agents.Masker { return l.m }

// TestReceiptIsMasked: a secret the agent passes on a command line (a terminal and an execute
// call) is masked in the live receipt on turn_end and in the one the history keeps.
func TestReceiptIsMasked(t *testing.T) {
	const secret = "sk-live-receipt-98765"
	base := t.TempDir()
	sc := `[` + handshake + `
 {"expect":"session/prompt"},
 {"call":"terminal/create","params":{"command":"echo","args":["` + secret + `"]},"want":"term-1"},
 {"call":"terminal/wait_for_exit","params":{"terminalId":"term-1"},"want":"exitCode"},
 {"update":{"sessionUpdate":"tool_call","toolCallId":"c1","title":"curl","kind":"execute","status":"completed",
   "rawInput":{"command":"curl -H 'Authorization: Bearer ` + secret + `' https://example.com"}}},
 {"reply":{"stopReason":"end_turn"}}]`
	m := agents.NewMasker()
	m.Add(secret)
	st := openTestStore(t, filepath.Join(base, "history.db"))
	defer st.Close()
	h := New(st, maskedAgents{agentList{scriptAgent(t, base, "a", sc)}, m}, t.Logf)
	s, evs := startIdle(t, h, base)
	if _, err := s.Prompt("go"); err != nil {
		t.Fatal(err)
	}
	end := waitFor(t, evs, func(ev acp.Event) bool { return ev.Kind == acp.EventTurnEnd })
	live, _ := json.Marshal(end.Receipt)
	if end.Receipt == nil || len(end.Receipt.Commands) != 2 {
		t.Fatalf("live receipt %s, want two commands", live)
	}
	ctx := context.Background()
	if err := h.Close(ctx, s.ID()); err != nil {
		t.Fatal(err)
	}
	_, turns, _, err := st.Session(ctx, s.ID())
	if err != nil || len(turns) != 1 || len(turns[0].Receipt) == 0 {
		t.Fatalf("saved turns %+v, %v", turns, err)
	}
	for where, text := range map[string]string{"the live receipt": string(live), "the saved receipt": string(turns[0].Receipt)} {
		if strings.Contains(text, secret) || !strings.Contains(text, agents.Mask) {
			t.Errorf("%s is not masked: %s", where, text)
		}
	}
	var saved receipt.Receipt
	if err := json.Unmarshal(turns[0].Receipt, &saved); err != nil || saved.Commands[0].Command != "echo "+agents.Mask {
		t.Fatalf("saved receipt %s (%v)", turns[0].Receipt, err)
	}
}
