package demoagent

import (
	"context"
	"encoding/json"
	"fmt"

	"agentdesk/backend/acp/schema"
)

// checksInTerminal shows lines as the output of a real terminal of the client's, a shell that
// prints them one per pace, in tool call id; the demo still changes nothing. ran is false, and
// nothing was shown, when the client runs no terminals or could not start this one (a session
// folder that does not exist); ok is false when the turn was cancelled.
func (s *script) checksInTerminal(id string, lines []string) (ok, ran bool) {
	s.a.mu.Lock()
	terminal := s.a.terminal
	s.a.mu.Unlock()
	if !terminal {
		return false, false
	}
	loop := `for l; do printf '%s\n' "$l"; done`
	if s.a.pace > 0 {
		loop = fmt.Sprintf(`for l; do printf '%%s\n' "$l"; sleep %.3f; done`, s.a.pace.Seconds())
	}
	var created schema.CreateTerminalResult
	err := s.a.conn.Call(s.ctx, schema.MethodTerminalCreate, schema.CreateTerminalParams{SessionID: s.session,
		Command: "sh", Args: append([]string{"-c", loop, "sh"}, lines...), Cwd: s.cwd}, &created)
	if err != nil {
		cancelled := s.ctx.Err() != nil
		return false, cancelled // not cancelled: show the lines as text instead
	}
	term := schema.TerminalParams{SessionID: s.session, TerminalID: created.TerminalID}
	// Released whatever happens, also when the turn is cancelled: that kills it if it still runs.
	defer s.a.conn.Call(context.Background(), schema.MethodTerminalRelease, term, nil)
	if !s.update(map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": id,
		"content": []any{map[string]any{"type": "terminal", "terminalId": created.TerminalID}}}) {
		return false, true
	}
	var exit schema.TerminalExitStatus
	if err := s.a.conn.Call(s.ctx, schema.MethodTerminalWaitForExit, term, &exit); err != nil {
		return false, true // cancelled: Call sent $/cancel_request
	}
	raw, _ := json.Marshal(exit)
	return s.update(map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": id, "status": "completed",
		"rawOutput": json.RawMessage(raw)}) && s.pause(), true
}
