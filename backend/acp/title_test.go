package acp_test

import (
	"context"
	"strings"
	"testing"

	"agentdesk/backend/acp"
)

// A rename goes to an agent that advertises sessionCapabilities.title as session/set_title with
// its session id, and the title it stored comes back cleaned for display (no controls, no bidi
// overrides, one line); to one that does not nothing is sent and nothing fails.
func TestSetTitlePushedOnlyWhenAdvertised(t *testing.T) {
	sc := script(t, `[{"expect":"initialize"}, {"reply":{"protocolVersion":1,"agentCapabilities":{"sessionCapabilities":{"title":{}}}}},
 {"expect":"session/new"}, {"reply":{"sessionId":"sc1"}},
 {"expect":"session/set_title"}, {"reply":{"title":"Fix\u202e the\n\u0007build "}}]`)
	j := &wireLog{}
	s, _ := runScript(t, sc, nil, func(c *acp.Config) { c.Journal = j.tap })
	stored, pushed, err := s.SetTitle(context.Background(), "  Fix the build  ")
	if err != nil || !pushed || stored != "Fix the build" {
		t.Fatalf("SetTitle = %q, %v, %v; want the agent's title cleaned", stored, pushed, err)
	}
	if sent := j.sent("session/set_title"); len(sent) != 1 || !strings.Contains(sent[0], `"params":{"sessionId":"sc1","title":"Fix the build"}`) {
		t.Fatalf("sent %q", sent)
	}

	j = &wireLog{}
	s, _ = runScript(t, script(t, "["+strings.TrimSuffix(handshake, ",")+"]"), nil, func(c *acp.Config) { c.Journal = j.tap })
	stored, pushed, err = s.SetTitle(context.Background(), "Fix the build")
	if err != nil || pushed || stored != "" {
		t.Fatalf("SetTitle to an agent without titles = %q, %v, %v", stored, pushed, err)
	}
	if sent := j.sent("session/set_title"); len(sent) != 0 {
		t.Fatalf("sent to an agent without titles: %q", sent)
	}
}
