package acp

import (
	"encoding/json"
	"testing"

	"agentdesk/backend/acp/schema"
)

// applyJSON decodes one session/update's update object and applies it to tr.
func applyJSON(t *testing.T, tr *Transcript, update string) {
	t.Helper()
	u, err := schema.DecodeUpdate(json.RawMessage(update))
	if err != nil {
		t.Fatalf("decode %s: %v", update, err)
	}
	tr.Apply(u)
}

// The Claude Code and Codex adapters run shell commands themselves and report them in _meta:
// the card shows the output (deltas appended, colours kept, other escapes dropped) and how the
// command ended; search finds its words without the colour codes.
func TestAgentTerminalInMetaIsShownOnTheCard(t *testing.T) {
	tr := NewTranscript()
	tr.StartTurn(1, "run the tests")
	applyJSON(t, tr, `{"sessionUpdate":"tool_call","toolCallId":"call_1","title":"go test ./...","kind":"execute",
		"status":"in_progress","content":[{"type":"terminal","terminalId":"t-9"}],
		"_meta":{"terminal_info":{"terminal_id":"t-9","cwd":"/p"},"claudeCode":{"toolName":"Bash"}}}`)
	applyJSON(t, tr, `{"sessionUpdate":"tool_call_update","toolCallId":"call_1",
		"_meta":{"terminal_output":{"terminal_id":"t-9","data":"ok  \u001b[32mexample.com/app\u001b[0m\n"}}}`)
	applyJSON(t, tr, `{"sessionUpdate":"tool_call_update","toolCallId":"call_1",
		"_meta":{"terminal_output_delta":{"terminal_id":"t-9","data":"\u001b]0;title\u0007FAIL example.com/web\u001b[K\n"}}}`)
	applyJSON(t, tr, `{"sessionUpdate":"tool_call_update","toolCallId":"call_1","status":"failed",
		"_meta":{"terminal_exit":{"terminal_id":"t-9","exit_code":1,"signal":null}}}`)

	es := tr.Entries()
	card := es[len(es)-1]
	if len(card.Content) != 1 {
		t.Fatalf("content %+v, want the one terminal", card.Content)
	}
	c := card.Content[0]
	if c.Type != "terminal" || c.TerminalID != "t-9" || c.Output != "ok  \x1b[32mexample.com/app\x1b[0m\nFAIL example.com/web\n" {
		t.Fatalf("terminal item %+v", c)
	}
	if c.ExitStatus == nil || c.ExitStatus.ExitCode == nil || *c.ExitStatus.ExitCode != 1 || c.ExitStatus.Signal != nil {
		t.Fatalf("exit status %+v", c.ExitStatus)
	}
	if card.SearchText() != "ok  example.com/app\nFAIL example.com/web\n" {
		t.Fatalf("the output is not what search finds: %q", card.SearchText())
	}
}

// An agent that reports output without a terminal item in the content (nor an id) still gets
// its output shown, under the tool call's own id; other _meta keys change nothing.
func TestAgentTerminalOutputWithoutATerminalItem(t *testing.T) {
	tr := NewTranscript()
	tr.StartTurn(1, "list")
	applyJSON(t, tr, `{"sessionUpdate":"tool_call","toolCallId":"call_2","title":"ls","kind":"execute","_meta":{"claudeCode":{}}}`)
	if es := tr.Entries(); len(es[len(es)-1].Content) != 0 {
		t.Fatalf("a _meta without terminal keys added content: %+v", es[len(es)-1].Content)
	}
	// A _meta of a shape we do not expect goes unread; the update itself still applies.
	applyJSON(t, tr, `{"sessionUpdate":"tool_call_update","toolCallId":"call_2","status":"in_progress","_meta":{"terminal_exit":"soon"}}`)
	if es := tr.Entries(); es[len(es)-1].Status != StatusInProgress || len(es[len(es)-1].Content) != 0 {
		t.Fatalf("after an unexpected _meta: %+v", es[len(es)-1])
	}
	applyJSON(t, tr, `{"sessionUpdate":"tool_call_update","toolCallId":"call_2","_meta":{"terminal_output":{"data":"a.go\nb.go\n"}}}`)
	es := tr.Entries()
	if c := es[len(es)-1].Content; len(c) != 1 || c[0].TerminalID != "call_2" || c[0].Output != "a.go\nb.go\n" || c[0].ExitStatus != nil {
		t.Fatalf("content %+v", c)
	}
}
