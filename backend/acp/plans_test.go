package acp_test

import (
	"strings"
	"testing"

	"agentdesk/backend/acp"
)

// Plans by id (plan_update, plan_removed): each plan is one entry, changed in place by the next
// update with its id, whatever its type; a removal marks it; one without an id, of an unknown type
// or removing an unknown plan stays an unknown entry; the turn's one plan (`plan`) is apart. The
// client advertises clientCapabilities.plan.
func TestPlansByIDUpsertInPlace(t *testing.T) {
	j := &wireLog{}
	s, ev := runScript(t, script(t, `[`+handshake+`
 {"expect":"session/prompt"},
 {"update":{"sessionUpdate":"plan_update","plan":{"type":"items","planId":"p1","entries":[{"content":"Read","priority":"high","status":"pending"}]}}},
 {"update":{"sessionUpdate":"plan_update","plan":{"type":"markdown","planId":"p2","content":"# Steps\n1. write"}}},
 {"update":{"sessionUpdate":"plan","entries":[{"content":"old style","priority":"low","status":"pending"}]}},
 {"update":{"sessionUpdate":"plan_update","plan":{"type":"items","planId":"p1","entries":[{"content":"Read","priority":"high","status":"completed"},{"content":"Write","priority":"low","status":"in_progress"}]}}},
 {"update":{"sessionUpdate":"plan_update","plan":{"type":"file","planId":"p3","uri":"file:///p/PLAN.md\u202e"}}},
 {"update":{"sessionUpdate":"plan_removed","planId":"p2"}},
 {"update":{"sessionUpdate":"plan_update","plan":{"type":"diagram","planId":"p4"}}},
 {"update":{"sessionUpdate":"plan_removed","planId":"nope"}},
 {"reply":{"stopReason":"end_turn"}}]`), nil, func(c *acp.Config) { c.Journal = j.tap })
	if init := j.sent("initialize"); len(init) != 1 || !strings.Contains(init[0], `"plan":{}`) {
		t.Fatalf("initialize %q does not advertise plans by id", init)
	}
	if _, err := s.Prompt("go"); err != nil {
		t.Fatal(err)
	}
	ev.waitFor(t, "turn_end", kind(acp.EventTurnEnd))
	var plans []acp.Entry
	unknown := 0
	for _, e := range s.Snapshot().Entries {
		switch e.Kind {
		case acp.KindPlan:
			plans = append(plans, e)
		case acp.KindUnknown:
			unknown++
		}
	}
	if len(plans) != 4 || unknown != 2 {
		t.Fatalf("%d plans and %d unknown entries: %+v", len(plans), unknown, s.Snapshot().Entries)
	}
	p1, p2, old, p3 := plans[0], plans[1], plans[2], plans[3]
	if p1.PlanDoc == nil || p1.PlanDoc.ID != "p1" || len(p1.Plan) != 2 || p1.Plan[0].Status != "completed" {
		t.Fatalf("p1 not updated in place: %+v %+v", p1, p1.PlanDoc)
	}
	if p2.PlanDoc == nil || !p2.PlanDoc.Removed || p2.PlanDoc.Markdown != "# Steps\n1. write" {
		t.Fatalf("p2: %+v", p2.PlanDoc)
	}
	if old.PlanDoc != nil || len(old.Plan) != 1 || old.Plan[0].Content != "old style" {
		t.Fatalf("the turn's plan: %+v", old)
	}
	if p3.PlanDoc == nil || p3.PlanDoc.URI != "file:///p/PLAN.md" {
		t.Fatalf("p3: %+v", p3.PlanDoc)
	}
}
