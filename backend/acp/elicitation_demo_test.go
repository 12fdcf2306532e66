package acp_test

import (
	"context"
	"io"
	"strings"
	"testing"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/acptest"
	"agentdesk/backend/acp/demoagent"
	"agentdesk/backend/acp/elicit"
)

// startDemoElicit starts the Demo agent with the elicitation modes given.
func startDemoElicit(t *testing.T, modes acp.ElicitModes) (*acp.Session, *events, *wireLog) {
	t.Helper()
	ev, j := newEvents(), &wireLog{}
	s := acp.NewSession(acp.Config{ID: "s1", AgentName: "Demo agent", Cwd: t.TempDir(), Emitter: ev, Logf: t.Logf,
		Journal: j.tap, Elicit: modes,
		Launch: func(context.Context) (acp.Transport, error) {
			return acptest.Serve(func(in io.Reader, out io.Writer) error { return demoagent.Serve(in, out, 0) }), nil
		}})
	t.Cleanup(func() { s.Close() })
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	return s, ev, j
}

// lastAgentText is the text of the last agent message.
func lastAgentText(s *acp.Session) string {
	text := ""
	for _, e := range s.Snapshot().Entries {
		if e.Kind == acp.KindAgent {
			text = e.Text
		}
	}
	return text
}

func TestElicitDemoForm(t *testing.T) {
	s, ev, j := startDemoElicit(t, acp.ElicitAll())
	if _, err := s.Prompt("Ask me something"); err != nil {
		t.Fatal(err)
	}
	el := elicitIn(t, ev, acp.ElicitOpen)
	schema, err := elicit.Parse(el.Schema)
	if err != nil || len(schema.Fields) != 5 || !schema.Field("token").Secret || !schema.Field("name").Required {
		t.Fatalf("the demo's form: %+v, %v", schema, err)
	}
	if err := s.AnswerElicitation(el.RequestID, acp.ElicitAccept, map[string]any{"name": "Ann", "colour": "blue",
		"count": 3.0, "subscribe": true, "token": "sk-secret-42"}); err != nil {
		t.Fatal(err)
	}
	ev.waitFor(t, "turn_end", kind(acp.EventTurnEnd))
	got := lastAgentText(s)
	for _, want := range []string{"**name**: Ann", "**colour**: blue", "**count**: 3", "**subscribe**: true", "a secret of 12 characters"} {
		if !strings.Contains(got, want) {
			t.Fatalf("the demo's reply %q lacks %q", got, want)
		}
	}
	if strings.Contains(j.text(), "sk-secret-42") {
		t.Fatal("the secret is in the journal")
	}
}

func TestElicitDemoLink(t *testing.T) {
	s, ev, _ := startDemoElicit(t, acp.ElicitAll())
	if _, err := s.Prompt("open a link"); err != nil {
		t.Fatal(err)
	}
	el := elicitIn(t, ev, acp.ElicitOpen)
	if el.URL != "https://example.com/login" || el.Host != "example.com" {
		t.Fatalf("the demo's link: %+v", el)
	}
	if err := s.AnswerElicitation(el.RequestID, acp.ElicitAccept, nil); err != nil {
		t.Fatal(err)
	}
	elicitIn(t, ev, acp.ElicitCompleted)
	ev.waitFor(t, "turn_end", kind(acp.EventTurnEnd))
	if got := lastAgentText(s); !strings.Contains(got, "login is done") {
		t.Fatalf("reply %q", got)
	}
}

func TestElicitDemoWithoutTheMode(t *testing.T) {
	s, ev, _ := startDemoElicit(t, acp.ElicitModes{Form: true})
	if _, err := s.Prompt("open a link"); err != nil {
		t.Fatal(err)
	}
	ev.waitFor(t, "turn_end", kind(acp.EventTurnEnd))
	if got := lastAgentText(s); !strings.Contains(got, "does not open elicitation links") {
		t.Fatalf("reply %q", got)
	}
}
