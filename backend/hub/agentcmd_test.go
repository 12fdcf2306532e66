package hub

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"agentdesk/backend/acp"
	"agentdesk/backend/agents"
)

// TestTheHistoryKeepsAnAgentCmdLineWithoutSecrets (issue 31): a session started with a command
// line (agents.CustomID) keeps the line as typed, so that continuing it can start the same command;
// a line that holds a secret value the masker knows is not kept at all, and continuing that
// session says so (ErrNoCommandLine) instead of starting a command with the secret masked out.
func TestTheHistoryKeepsAnAgentCmdLineWithoutSecrets(t *testing.T) {
	const secret = "sk-live-agentcmd-24680"
	sc := `[{"expect":"initialize"}, {"reply":{"protocolVersion":1,"agentCapabilities":{}}},
 {"expect":"session/new"}, {"reply":{"sessionId":"c1"}}]`
	for _, c := range []struct {
		name, line, want string
		err              error
	}{
		{"a plain line", "agent --acp --token $TOKEN", "agent --acp --token $TOKEN", nil},
		{"a line with a secret", "agent --acp --token " + secret, "", ErrNoCommandLine},
	} {
		t.Run(c.name, func(t *testing.T) {
			base := t.TempDir()
			agent := scriptAgent(t, base, agents.CustomID, sc)
			agent.Line = c.line
			m := agents.NewMasker()
			m.Add(secret)
			st := openTestStore(t, filepath.Join(base, "history.db"))
			defer st.Close()
			h := New(st, maskedAgents{agentList{agent}, m}, t.Logf)
			emit, states := stateEvents()
			s, _, err := h.Start(StartRequest{AgentID: agents.CustomID, Cwd: base}, emit)
			if err != nil {
				t.Fatal(err)
			}
			waitState(t, states, acp.StateIdle)
			ctx := context.Background()
			if err := h.Close(ctx, s.ID()); err != nil {
				t.Fatal(err)
			}
			sess, _, _, err := st.Session(ctx, s.ID())
			if err != nil || sess.AgentCmd != c.want {
				t.Fatalf("kept %q, %v; want %q", sess.AgentCmd, err, c.want)
			}
			if c.err == nil {
				return
			}
			if _, _, err := h.ContinueSaved(ctx, ContinueRequest{SessionID: s.ID()}, emit); !errors.Is(err, c.err) {
				t.Fatalf("continue: %v, want %v", err, c.err)
			}
		})
	}
}
