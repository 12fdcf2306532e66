package acp_test

import (
	"context"
	"strings"
	"testing"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/acptest"
)

// TestARefusedStartSaysWhatToDoAboutAKnownReason: an agent that refuses session/new with a
// startupFailureReason agentdesk knows ("bypass_root": Claude Code as root) fails the start with
// its own words and what a person can do, in the returned error, the error entry and the state;
// an unknown reason leaves the agent's words alone.
func TestARefusedStartSaysWhatToDoAboutAKnownReason(t *testing.T) {
	for _, c := range []struct{ reason, want string }{{"bypass_root", "IS_SANDBOX"}, {"no_disk", ""}} {
		t.Run(c.reason, func(t *testing.T) {
			sc := script(t, `[{"expect":"initialize"}, {"reply":{"protocolVersion":1,"agentCapabilities":{}}},
 {"expect":"session/new"}, {"error":{"code":-32603,"message":"Internal error: cannot be used with root","data":{"startupFailureReason":"`+c.reason+`"}}}]`)
			s, _ := newTestSession(t, func() acp.Transport { return acptest.Serve(sc.Run) })
			err := s.Start(context.Background())
			if err == nil || !strings.Contains(err.Error(), "cannot be used with root") {
				t.Fatalf("Start: %v, want the agent's words", err)
			}
			snap := s.Snapshot()
			last := snap.Entries[len(snap.Entries)-1]
			for where, text := range map[string]string{"the error": err.Error(), "the error entry": last.Text, "the state": snap.Message} {
				if got := strings.Contains(text, "IS_SANDBOX"); got != (c.want != "") {
					t.Errorf("%s: %q; a hint: %v, want %v", where, text, got, c.want != "")
				}
			}
		})
	}
}
