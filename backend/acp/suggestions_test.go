package acp_test

import (
	"strings"
	"testing"

	"agentdesk/backend/acp"
)

// suggestion is a _claude/sdkMessage line carrying a prompt suggestion for session sid.
func suggestion(sid, text string) string {
	return `{"send":{"jsonrpc":"2.0","method":"_claude/sdkMessage","params":{"sessionId":"` + sid +
		`","message":{"type":"prompt_suggestion","suggestion":` + text + `}}}},`
}

// Prompt suggestions (claude-agent-acp's _claude/sdkMessage prompt_suggestion) reach the window
// as at most three plain lines, newest last, each once; one for another session, another SDK
// message and a bidi override are not shown; a turn's start clears them.
func TestPromptSuggestionsBoundedCleanAndClearedByATurn(t *testing.T) {
	long := `"` + strings.Repeat("x", 2*acp.MaxSuggestionText) + `"`
	// Sent during a turn, as claude-agent-acp sends them at its end: the agent session id is known.
	s, ev := startScript(t, `{"expect":"session/prompt"},`+suggestion("sc1", `"first"`)+suggestion("other", `"not ours"`)+
		`{"send":{"jsonrpc":"2.0","method":"_claude/sdkMessage","params":{"sessionId":"sc1","message":{"type":"result"}}}},`+
		suggestion("sc1", `"Run the\u202e tests\n"`)+suggestion("sc1", long)+suggestion("sc1", `"first"`)+`
 {"reply":{"stopReason":"end_turn"}},
 {"expect":"session/prompt"}, {"reply":{"stopReason":"end_turn"}}`)
	if _, err := s.Prompt("one"); err != nil {
		t.Fatal(err)
	}
	info := ev.waitFor(t, "three suggestions", func(e acp.Event) bool {
		return e.Kind == acp.EventInfo && e.Controls != nil && len(e.Controls.Suggestions) == 3 && e.Controls.Suggestions[2] == "first"
	})
	got := info.Controls.Suggestions
	if got[0] != "Run the tests" || len(got[1]) > acp.MaxSuggestionText || !strings.HasSuffix(got[1], "…") {
		t.Fatalf("suggestions %q", got)
	}
	ev.waitFor(t, "turn_end", kind(acp.EventTurnEnd))
	if _, err := s.Prompt("two"); err != nil {
		t.Fatal(err)
	}
	ev.waitFor(t, "suggestions cleared", func(e acp.Event) bool {
		return e.Kind == acp.EventInfo && e.Controls != nil && len(e.Controls.Suggestions) == 0
	})
	ev.waitFor(t, "turn_end", kind(acp.EventTurnEnd))
	if c := s.Snapshot().Controls; len(c.Suggestions) != 0 {
		t.Fatalf("suggestions after a turn started: %q", c.Suggestions)
	}
}
