package acp_test

import (
	"context"
	"io"
	"testing"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/acptest"
	"agentdesk/backend/acp/schema"
)

func TestRunningVersionPrefersTheInstalledOneAndShowsOnlyAPlainAgentVersion(t *testing.T) {
	for _, tc := range []struct {
		installed string
		info      *schema.Implementation
		want      string
	}{
		{"0.101.0", &schema.Implementation{Version: "9.9.9"}, "0.101.0"},
		{"", &schema.Implementation{Version: "1.18.33"}, "1.18.33"},
		{"", &schema.Implementation{Version: "2.6.0-beta.1+abc"}, "2.6.0-beta.1+abc"},
		{"", nil, ""},
		{"", &schema.Implementation{Version: ""}, ""},
		{"", &schema.Implementation{Version: "1.0\u202e.0"}, ""},      // bidi
		{"", &schema.Implementation{Version: "1.0.0\nfake line"}, ""}, // control
		{"", &schema.Implementation{Version: "<b>1.0</b>"}, ""},       // markup
		{"", &schema.Implementation{Version: "1.0.0 (build 7)"}, ""},  // words
		{"", &schema.Implementation{Version: string(make([]byte, 41))}, ""},
	} {
		if got := acp.RunningVersion(tc.installed, tc.info); got != tc.want {
			t.Errorf("RunningVersion(%q, %+v) = %q, want %q", tc.installed, tc.info, got, tc.want)
		}
	}
}

// An agent started from its own command shows the version it sends in initialize (an info event
// and the snapshot agree); an installed one shows the version installed, whatever it says.
func TestTheSessionShowsTheAgentsOwnVersionUnlessOneIsInstalled(t *testing.T) {
	for _, tc := range []struct{ installed, want string }{{"", "3.1.4"}, {"1.0.0", "1.0.0"}} {
		sc := script(t, `[{"expect":"initialize"}, {"reply":{"protocolVersion":1,"agentCapabilities":{},"agentInfo":{"name":"x","version":"3.1.4"}}},
 {"expect":"session/new"}, {"reply":{"sessionId":"sc1"}}]`)
		ev := newEvents()
		s := acp.NewSession(acp.Config{ID: "s1", AgentName: "scripted", AgentVersion: tc.installed, Cwd: "/p", Emitter: ev, Logf: t.Logf,
			Launch: func(context.Context) (acp.Transport, error) {
				return acptest.Serve(func(in io.Reader, w io.Writer) error { return sc.Run(in, w) }), nil
			}})
		if err := s.Start(context.Background()); err != nil {
			t.Fatal(err)
		}
		if got := s.Snapshot().AgentVersion; got != tc.want {
			t.Errorf("installed %q: snapshot version %q, want %q", tc.installed, got, tc.want)
		}
		if tc.installed == "" {
			ev.waitFor(t, "the info event with the agent's version", func(e acp.Event) bool { return e.Kind == acp.EventInfo && e.AgentVersion == "3.1.4" })
		}
		s.Close()
	}
}
