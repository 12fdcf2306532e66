package demoagent

import (
	"encoding/json"
	"fmt"

	"agentdesk/backend/acp/jsonrpc"
	"agentdesk/backend/acp/schema"
)

// settings are what the Demo agent lets the user pick, to show off the session controls: a
// mode (ask before edits, or edit without asking) and whether it thinks out loud.
type settings struct {
	cwd         string
	mode        string // "ask" | "auto"
	thinking    bool
	alwaysAllow bool   // the user chose "Always allow" for edits in this session
	houseRules  string // the client's system prompt of session/new, text only (houserules.go)
}

const (
	modeAsk  = "ask"
	modeAuto = "auto"
)

// configOptions renders the settings as ACP config options, in a stable order.
func (st *settings) configOptions() []schema.ConfigOption {
	mode, _ := json.Marshal(st.mode)
	thinking, _ := json.Marshal(st.thinking)
	return []schema.ConfigOption{
		{ID: "mode", Name: "Mode", Category: "mode", Type: "select", CurrentValue: mode,
			Options: json.RawMessage(`[{"value":"ask","name":"Ask before edits","description":"Every edit waits for your permission"},` +
				`{"value":"auto","name":"Edit automatically","description":"Edits are applied without asking"}]`)},
		{ID: "thinking", Name: "Think out loud", Type: "boolean", CurrentValue: thinking},
	}
}

// commands are the slash commands the Demo agent advertises (sent as plain prompt text).
var commands = []schema.SlashCommand{
	{Name: "review", Description: "Review the project folder", Input: &schema.CommandInput{Hint: "what to focus on"}},
	{Name: "plan", Description: "Only make a plan, change nothing"},
	{Name: "compact", Description: "Compact the conversation's context"},
}

// setConfigOption answers session/set_config_option with the complete new list.
func (a *Agent) setConfigOption(req *jsonrpc.Request) {
	var p struct {
		SessionID string          `json:"sessionId"`
		ConfigID  string          `json:"configId"`
		Value     json.RawMessage `json:"value"`
	}
	if err := json.Unmarshal(req.Params, &p); err != nil {
		req.Reply(nil, &jsonrpc.Error{Code: schema.CodeInvalidParams, Message: err.Error()})
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	st, ok := a.sessions[p.SessionID]
	if !ok {
		req.Reply(nil, &jsonrpc.Error{Code: schema.CodeInvalidParams, Message: "unknown session " + p.SessionID})
		return
	}
	var err error
	switch p.ConfigID {
	case "mode":
		var v string
		if err = json.Unmarshal(p.Value, &v); err == nil && v != modeAsk && v != modeAuto {
			err = fmt.Errorf("mode must be %q or %q", modeAsk, modeAuto)
		}
		if err == nil {
			st.mode = v
		}
	case "thinking":
		err = json.Unmarshal(p.Value, &st.thinking)
	default:
		err = fmt.Errorf("no setting %q", p.ConfigID)
	}
	if err != nil {
		req.Reply(nil, &jsonrpc.Error{Code: schema.CodeInvalidParams, Message: err.Error()})
		return
	}
	req.Reply(map[string]any{"configOptions": st.configOptions()}, nil)
}
