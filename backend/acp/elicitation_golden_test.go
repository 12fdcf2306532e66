package acp_test

import (
	"strings"
	"testing"

	"agentdesk/backend/acp"
)

// TestGoldenElicitationTurn pins the JSON of elicitation entries for the frontend, which folds
// the same file (testdata/events/elicitation.json), and their Markdown: a form accepted with a
// secret (masked), a form declined, a malformed one refused (invalid), a link accepted and then
// completed by the agent. -update rewrites both.
func TestGoldenElicitationTurn(t *testing.T) {
	s, ev, _ := startElicit(t, acp.ElicitAll(), `
 {"expect":"session/prompt"},
 {"call":"elicitation/create","id":1,"params":{"mode":"form","message":"Connect the service","requestedSchema":{"type":"object","properties":{
   "user":{"type":"string","title":"User","format":"email"},
   "password":{"type":"string","title":"Password","format":"password"},
   "region":{"type":"string","title":"Region","enum":["eu","us"],"default":"eu"},
   "retries":{"type":"integer","minimum":0,"maximum":5,"default":2},
   "verbose":{"type":"boolean"},
   "tags":{"type":"array","items":{"type":"string","enum":["a","b","c"]},"minItems":1}},"required":["user","password"]}},
  "want":"\"password\":\"pa55word\""},
 {"call":"elicitation/create","id":"q2","params":{"mode":"form","message":"Rate this answer","requestedSchema":{"type":"object","properties":{"stars":{"type":"integer","minimum":1,"maximum":5}}}},"want":"decline"},
 {"call":"elicitation/create","id":3,"params":{"mode":"form","message":"Broken","requestedSchema":{"type":"object","properties":{"x":{"type":"object"}}}},"want":"-32602"},
 {"call":"elicitation/create","id":4,"params":{"mode":"url","message":"Log in to Example","url":"https://example.com/login","elicitationId":"login-1"},"want":"accept"},
 {"send":{"jsonrpc":"2.0","method":"elicitation/complete","params":{"elicitationId":"login-1"}}},
 {"update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Connected."}}},
 {"reply":{"stopReason":"end_turn"}}`)
	if _, err := s.Prompt("connect"); err != nil {
		t.Fatal(err)
	}
	form := elicitIn(t, ev, acp.ElicitOpen)
	if err := s.AnswerElicitation(form.RequestID, acp.ElicitAccept, map[string]any{"user": "ann@example.com",
		"password": "pa55word", "region": "us", "retries": 2.0, "verbose": true, "tags": []any{"a", "c"}}); err != nil {
		t.Fatal(err)
	}
	rate := elicitIn(t, ev, acp.ElicitOpen)
	if err := s.AnswerElicitation(rate.RequestID, acp.ElicitDecline, nil); err != nil {
		t.Fatal(err)
	}
	link := elicitIn(t, ev, acp.ElicitOpen)
	if link.RequestID != "4" {
		t.Fatalf("the link is %+v", link)
	}
	if err := s.AnswerElicitation(link.RequestID, acp.ElicitAccept, nil); err != nil {
		t.Fatal(err)
	}
	snap, live := settledSnapshot(t, s, ev)
	md := markdown(snap.Entries)
	for _, want := range []string{"password: ••••••", "declined by the user", "refused: requestedSchema property", "accepted by the user, then completed by the agent"} {
		if !strings.Contains(md, want) {
			t.Fatalf("markdown lacks %q:\n%s", want, md)
		}
	}
	checkGolden(t, "elicitation", live, snap.Entries)
}
