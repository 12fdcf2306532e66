//go:build linux

package acp_test

import (
	"testing"

	"agentdesk/backend/acp/jsonrpc"
	"agentdesk/backend/acp/schema"
)

// TestGoldenTerminalTurn pins the JSON of a tool card that shows one of our terminals (output
// cut at the agent's byte limit, exit code) for the frontend, which folds the same file, and the
// card's Markdown. -update rewrites both; the events file comes from a live run, so the number
// of live refreshes in it may differ between runs, never what they fold to.
func TestGoldenTerminalTurn(t *testing.T) {
	limit := int64(14)
	s, ev, _ := startTerminals(t, t.TempDir(), func(c *jsonrpc.Conn, req *jsonrpc.Request) {
		defer req.Reply(schema.PromptResult{StopReason: schema.StopEndTurn}, nil)
		id, err := createTerminal(c, schema.CreateTerminalParams{Command: `printf 'step 1\nstep 2\nstep 3\n'; exit 2`, OutputByteLimit: &limit})
		if err != nil {
			return
		}
		_ = terminalCall(c, schema.MethodTerminalWaitForExit, id, nil)
		_ = terminalCall(c, schema.MethodTerminalRelease, id, nil)
		sendUpdate(c, `{"sessionUpdate":"tool_call_update","toolCallId":"run","status":"failed"}`)
		sendUpdate(c, `{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"The third step failed."}}`)
	})
	if _, err := s.Prompt("run the steps"); err != nil {
		t.Fatal(err)
	}
	snap, live := settledSnapshot(t, s, ev)

	checkGolden(t, "terminal", live, snap.Entries)
}
