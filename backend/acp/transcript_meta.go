package acp

import (
	"encoding/json"

	"agentdesk/backend/acp/schema"
	"agentdesk/backend/acp/terminal"
)

// Terminals that the agent runs itself and reports in a tool call's _meta, as the Claude Code
// and Codex adapters and Gemini CLI do (docs/acp.md, "_meta"): terminal_info names the
// terminal, terminal_output (or terminal_output_delta) carries the next piece of its output and
// terminal_exit how it ended. The card shows them as it shows a terminal of ours: the tail of
// the output, with its colours and no other escape (terminal.CardText), and the exit status. Nothing else in _meta is read; the raw
// message keeps all of it.

// ToolCallMeta is the part of a tool call's _meta that agentdesk reads.
type ToolCallMeta struct {
	TerminalInfo        *metaTerminal `json:"terminal_info,omitempty"`
	TerminalOutput      *metaTerminal `json:"terminal_output,omitempty"`
	TerminalOutputDelta *metaTerminal `json:"terminal_output_delta,omitempty"`
	TerminalExit        *metaTerminal `json:"terminal_exit,omitempty"`
}

// decodeToolMeta reads what agentdesk uses of a tool call's _meta, or nil. It never fails the
// update: _meta is an open object, and a shape we do not expect only goes unread.
func decodeToolMeta(raw json.RawMessage) *ToolCallMeta {
	if len(raw) == 0 {
		return nil
	}
	var m ToolCallMeta
	if json.Unmarshal(raw, &m) != nil || m == (ToolCallMeta{}) {
		return nil
	}
	return &m
}

// metaTerminal is one of the terminal_* objects; each sets the fields of its kind.
type metaTerminal struct {
	TerminalID string  `json:"terminal_id,omitempty"`
	Data       string  `json:"data,omitempty"`
	ExitCode   *int    `json:"exit_code,omitempty"`
	Signal     *string `json:"signal,omitempty"`
}

// agentTerminalState is the output of one agent-run terminal so far, within
// terminal.DisplayBytes, and its exit once known.
type agentTerminalState struct {
	buf  terminal.Buffer
	exit *schema.TerminalExitStatus
}

// agentTerminal applies the terminal parts of m to the card e: it shows the terminal (adding a
// terminal item to its content when the agent sent none) with the output so far and its exit.
func (t *Transcript) agentTerminal(e *Entry, m ToolCallMeta) {
	id := ""
	for _, p := range []*metaTerminal{m.TerminalInfo, m.TerminalOutput, m.TerminalOutputDelta, m.TerminalExit} {
		if p != nil && id == "" {
			id = p.TerminalID
		}
	}
	if id == "" {
		id = e.ToolCallID // the terminal is the tool call's own
	}
	if t.ownTerms == nil {
		t.ownTerms = map[string]*agentTerminalState{}
	}
	st := t.ownTerms[id]
	if st == nil {
		st = &agentTerminalState{buf: terminal.NewBuffer(terminal.DisplayBytes)}
		t.ownTerms[id] = st
	}
	for _, p := range []*metaTerminal{m.TerminalOutput, m.TerminalOutputDelta} {
		if p != nil && p.Data != "" {
			st.buf.Write([]byte(p.Data))
		}
	}
	if x := m.TerminalExit; x != nil {
		st.exit = &schema.TerminalExitStatus{ExitCode: x.ExitCode, Signal: x.Signal}
	}
	v := terminal.View{Output: terminal.CardText(string(st.buf.Bytes(st.exit != nil))),
		Truncated: st.buf.Truncated(), ExitStatus: st.exit}
	t.initTerminals()
	t.terms[id] = v // a later content replacement that names the terminal shows it too
	if !setTerminalContent(e, id, v) {
		e.Content = append(e.Content, ToolContent{Type: "terminal", TerminalID: id,
			Output: v.Output, Truncated: v.Truncated, ExitStatus: v.ExitStatus})
	}
}
