package acp_test

import (
	"sync"
	"testing"

	"agentdesk/backend/acp"
)

// nameRules records the name each permission request carried and decides nothing.
type nameRules struct {
	mu    sync.Mutex
	names []string
}

var _ acp.PermissionRules = (*nameRules)(nil)

func (r *nameRules) Decide(q acp.PermissionQuery) (acp.RuleDecision, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.names = append(r.names, q.Name)
	return acp.RuleDecision{}, false
}

func (r *nameRules) Offer(acp.PermissionQuery) []acp.RuleOption { return nil }

// A tool call's name (schema 1.35) is kept on its card as one plain line (no bidi override, no
// line break), a name of the wrong type leaves it as it was, null clears it, and the permission
// rules are given it.
func TestToolCallNameShownAndGivenToRules(t *testing.T) {
	rules := &nameRules{}
	sc := script(t, `[`+handshake+`
 {"expect":"session/prompt"},
 {"update":{"sessionUpdate":"tool_call","toolCallId":"t1","title":"Run ls","kind":"execute","name":"Ba\u202esh\n"}},
 {"update":{"sessionUpdate":"tool_call_update","toolCallId":"t1","name":42,"status":"in_progress"}},
 {"update":{"sessionUpdate":"tool_call","toolCallId":"t2","title":"Read","name":"read_file"}},
 {"update":{"sessionUpdate":"tool_call_update","toolCallId":"t2","name":null}},
 {"call":"session/request_permission","params":{"toolCall":{"toolCallId":"t3","title":"Edit","kind":"edit","name":"apply_patch"},
   "options":[{"optionId":"ok","name":"Allow","kind":"allow_once"}]}},
 {"reply":{"stopReason":"end_turn"}}]`)
	s, ev := runScript(t, sc, nil, func(c *acp.Config) { c.Rules = rules })
	if _, err := s.Prompt("go"); err != nil {
		t.Fatal(err)
	}
	p := ev.waitFor(t, "permission", kind(acp.EventPermission))
	if err := s.AnswerPermission(p.RequestID, "ok"); err != nil {
		t.Fatal(err)
	}
	ev.waitFor(t, "turn_end", kind(acp.EventTurnEnd))
	names := map[string]string{}
	for _, e := range s.Snapshot().Entries {
		if e.Kind == acp.KindTool {
			names[e.ToolCallID] = e.ToolName
		}
	}
	if names["t1"] != "Bash" || names["t2"] != "" || names["t3"] != "apply_patch" {
		t.Fatalf("tool names %q", names)
	}
	rules.mu.Lock()
	defer rules.mu.Unlock()
	if len(rules.names) != 1 || rules.names[0] != "apply_patch" {
		t.Fatalf("the rules were given names %q", rules.names)
	}
}
