package acp_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"
	"time"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/receipt"
	"agentdesk/backend/acp/schema"
)

// testClock is a session clock the test moves by hand.
type testClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *testClock) advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// startReceiptScript starts a scripted agent in a temp folder with every elicitation mode and
// the clock given.
func startReceiptScript(t *testing.T, clock *testClock, steps string) (*acp.Session, *events) {
	t.Helper()
	return runScript(t, script(t, "["+handshake+steps+"]"), nil, func(c *acp.Config) {
		c.Cwd = t.TempDir()
		c.Elicit = acp.ElicitAll()
		c.Now = clock.Now
	})
}

// cardID is the entry id of the tool card of the agent's tool call id.
func cardID(t *testing.T, s *acp.Session, toolCallID string) string {
	t.Helper()
	for _, e := range s.Snapshot().Entries {
		if e.Kind == acp.KindTool && e.ToolCallID == toolCallID {
			return e.ID
		}
	}
	t.Fatalf("no card for tool call %s", toolCallID)
	return ""
}

func intp(n int) *int { return &n }

// gate is a FIFO a terminal command reads (cat): the agent waits for that command, so while
// the test holds the gate the agent is blocked on nothing but it, and the test may move the
// clock without a race.
type gate string

func newGate(t *testing.T) gate {
	t.Helper()
	p := filepath.Join(t.TempDir(), "gate")
	if err := mkfifo(p); err != nil {
		t.Skipf("no FIFO: %v", err)
	}
	return gate(p)
}

// pass waits until the command reads the gate (its open returns only then), moves the clock by
// d and lets the command end.
func (g gate) pass(t *testing.T, clock *testClock, d time.Duration) {
	t.Helper()
	f, err := os.OpenFile(string(g), os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	clock.advance(d)
	f.Close()
}

// TestTurnReceipt: a turn that runs a terminal command failing with exit code 3 (shown by an
// execute call: listed once), three more execute calls (one whose terminal the agent runs
// itself, one that fails with "Exit code 3" as Claude Code's Bash tool says it), a permission answered, an elicitation answered, a usage_update with a cost and
// usage in the prompt's answer: every field of the receipt, on turn_end and in the snapshot.
func TestTurnReceipt(t *testing.T) {
	clock := &testClock{now: time.UnixMilli(1_700_000_000_000)}
	g := newGate(t)
	s, ev := startReceiptScript(t, clock, `
 {"expect":"session/prompt"},
 {"update":{"sessionUpdate":"usage_update","used":10,"size":1000,"cost":{"amount":1.5,"currency":"USD"}}},
 {"reply":{"stopReason":"end_turn"}},
 {"expect":"session/prompt"},
 {"call":"terminal/create","params":{"command":"sh","args":["-c","cat \"$0\"; exit 3","`+string(g)+`"]},"want":"\"terminalId\":\"term-1\""},
 {"call":"terminal/wait_for_exit","params":{"terminalId":"term-1"},"want":"\"exitCode\":3"},
 {"update":{"sessionUpdate":"tool_call","toolCallId":"run","title":"Run sh","kind":"execute","status":"in_progress",
   "rawInput":{"command":"sh -c 'echo hi; exit 3'"},"content":[{"type":"terminal","terminalId":"term-1"}]}},
 {"update":{"sessionUpdate":"tool_call","toolCallId":"tests","title":"Run the tests","kind":"execute","status":"pending"}},
 {"update":{"sessionUpdate":"tool_call_update","toolCallId":"tests","rawInput":{"command":["go","test","./..."]},"status":"completed"}},
 {"update":{"sessionUpdate":"tool_call","toolCallId":"mk","title":"make","kind":"execute","status":"completed",
   "_meta":{"terminal_info":{"terminal_id":"a1"},"terminal_exit":{"terminal_id":"a1","exit_code":2}}}},
 {"update":{"sessionUpdate":"tool_call","toolCallId":"bash","title":"./check.sh","kind":"execute","status":"pending","rawInput":{"command":"./check.sh","description":"Run the check"}}},
 {"update":{"sessionUpdate":"tool_call_update","toolCallId":"bash","status":"failed","rawOutput":"Exit code 3\nboom",
   "content":[{"type":"content","content":{"type":"text","text":"Exit code 3\nboom"}}]}},
 {"update":{"sessionUpdate":"tool_call","toolCallId":"rd","title":"Read a.go","kind":"read","status":"completed"}},
 {"call":"session/request_permission","params":{"toolCall":{"toolCallId":"w1","title":"Write a.go","kind":"edit"},
   "options":[{"optionId":"ok","name":"Allow","kind":"allow_once"},{"optionId":"no","name":"Reject","kind":"reject_once"}]},"want":"\"optionId\":\"ok\""},
 {"call":"elicitation/create","params":{"mode":"form","message":"Which branch?","requestedSchema":{"type":"object","properties":{"b":{"type":"string"}}}},"want":"accept"},
 {"update":{"sessionUpdate":"usage_update","used":20,"size":1000,"cost":{"amount":2.25,"currency":"USD"}}},
 {"reply":{"stopReason":"end_turn","usage":{"inputTokens":100,"outputTokens":20,"thoughtTokens":5,"cachedReadTokens":50,"cachedWriteTokens":7,"totalTokens":125}}}`)

	// Turn 1: only a cost, from none: the whole of it.
	if _, err := s.Prompt("first"); err != nil {
		t.Fatal(err)
	}
	end1 := ev.waitFor(t, "turn 1 end", func(e acp.Event) bool { return e.Kind == acp.EventTurnEnd && e.Turn == 1 })
	if r := end1.Receipt; r == nil || r.Cost == nil || *r.Cost != (schema.Cost{Amount: 1.5, Currency: "USD"}) || r.Tokens != nil || r.WaitMs != 0 ||
		r.Commands != nil || r.Decisions != nil || r.Questions != nil {
		t.Fatalf("turn 1 receipt %+v", end1.Receipt)
	}

	if _, err := s.Prompt("second"); err != nil {
		t.Fatal(err)
	}
	g.pass(t, clock, time.Second) // the command runs: nobody is waited on
	perm := ev.waitFor(t, "permission", kind(acp.EventPermission))
	clock.advance(5 * time.Second)
	if err := s.AnswerPermission(perm.RequestID, "ok"); err != nil {
		t.Fatal(err)
	}
	el := elicitIn(t, ev, acp.ElicitOpen)
	clock.advance(7 * time.Second)
	if err := s.AnswerElicitation(el.RequestID, acp.ElicitAccept, map[string]any{"b": "main"}); err != nil {
		t.Fatal(err)
	}
	end := ev.waitFor(t, "turn 2 end", func(e acp.Event) bool { return e.Kind == acp.EventTurnEnd && e.Turn == 2 })

	want := &receipt.Receipt{
		StopReason: schema.StopEndTurn,
		StartedAt:  1_700_000_000_000, EndedAt: 1_700_000_013_000, WallMs: 13_000, WaitMs: 12_000,
		Commands: []receipt.Command{
			{Command: "sh -c 'cat \"$0\"; exit 3' " + string(g), ToolCallID: cardID(t, s, "run"), ExitCode: intp(3)},
			{Command: "go test ./...", ToolCallID: cardID(t, s, "tests")},
			{Command: "make", ToolCallID: cardID(t, s, "mk"), ExitCode: intp(2)},
			{Command: "./check.sh", ToolCallID: cardID(t, s, "bash"), ExitCode: intp(3)}, // Claude Code's words
		},
		Decisions: []receipt.Decision{{Title: "Write a.go", ToolCallID: cardID(t, s, "w1"), Outcome: "selected",
			Option: "Allow", Kind: schema.AllowOnce, DecidedBy: acp.DecidedByUser}},
		Questions: []receipt.Question{{Message: "Which branch?", Mode: acp.ElicitModeForm, State: acp.ElicitAccepted, AnsweredBy: acp.AnsweredByUser}},
		Tokens:    &receipt.Tokens{Input: 100, Output: 20, Thought: 5, CachedRead: 50, CachedWrite: 7, Total: 125},
		Cost:      &schema.Cost{Amount: 0.75, Currency: "USD"},
	}
	if !reflect.DeepEqual(end.Receipt, want) {
		got, _ := json.MarshalIndent(end.Receipt, "", " ")
		exp, _ := json.MarshalIndent(want, "", " ")
		t.Fatalf("receipt\n%s\nwant\n%s", got, exp)
	}
	snap := s.Snapshot()
	if len(snap.Turns) != 2 || !reflect.DeepEqual(snap.Turns[1].Receipt, want) {
		t.Fatalf("snapshot turns %+v", snap.Turns)
	}
	if n, first := acp.InvariantBreaks(); n > 0 {
		t.Fatalf("invariants broken %d times: %s", n, first)
	}
}

// TestReceiptBounded: an agent that runs commands without end fills a receipt's list up to
// MaxReceiptItems and counts the rest; updates to a counted call count nothing again.
func TestReceiptBounded(t *testing.T) {
	steps := ` {"expect":"session/prompt"},`
	n := receipt.MaxItems + 5
	for i := range n {
		u, _ := json.Marshal(map[string]any{"update": map[string]any{"sessionUpdate": "tool_call", "toolCallId": "c" + itoa(i),
			"title": "cmd", "kind": "execute", "status": "completed"}})
		steps += string(u) + ","
	}
	// An update of a call beyond the bound is not counted again.
	steps += `{"update":{"sessionUpdate":"tool_call_update","toolCallId":"c` + itoa(n-1) + `","status":"failed"}},
 {"reply":{"stopReason":"end_turn"}}`
	s, ev := startReceiptScript(t, &testClock{now: time.Unix(0, 0)}, steps)
	if _, err := s.Prompt("go"); err != nil {
		t.Fatal(err)
	}
	end := ev.waitFor(t, "turn_end", kind(acp.EventTurnEnd))
	if r := end.Receipt; len(r.Commands) != receipt.MaxItems || r.MoreCommands != 5 {
		t.Fatalf("%d commands, %d more", len(r.Commands), r.MoreCommands)
	}
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

// TestReceiptWaitOverlapsOnce: a permission request and an elicitation open at the same time
// count their common time once; a request the turn's Stop cancels is a cancelled decision, and
// the time it was open counts up to the turn's end.
func TestReceiptWaitOverlapsOnce(t *testing.T) {
	clock := &testClock{now: time.UnixMilli(0)}
	g := newGate(t)
	s, ev := startReceiptScript(t, clock, `
 {"expect":"session/prompt"},
 {"send":{"jsonrpc":"2.0","id":50,"method":"session/request_permission","params":{"sessionId":"sc1",
   "toolCall":{"toolCallId":"w1","title":"Write a.go"},"options":[{"optionId":"ok","name":"Allow","kind":"allow_once"}]}}},
 {"call":"elicitation/create","params":{"mode":"form","message":"Sure?","requestedSchema":{"type":"object","properties":{}}},"want":"decline"},
 {"call":"terminal/create","params":{"command":"cat","args":["`+string(g)+`"]},"want":"term-1"},
 {"call":"terminal/wait_for_exit","params":{"terminalId":"term-1"},"want":"exitCode"},
 {"send":{"jsonrpc":"2.0","id":51,"method":"session/request_permission","params":{"sessionId":"sc1",
   "toolCall":{"toolCallId":"w2","title":"Delete b.go"},"options":[{"optionId":"ok","name":"Allow","kind":"allow_once"}]}}},
 {"expect":"session/cancel"},
 {"reply":{"stopReason":"cancelled"}}`)
	if _, err := s.Prompt("go"); err != nil {
		t.Fatal(err)
	}
	perm := ev.waitFor(t, "permission", kind(acp.EventPermission))
	el := elicitIn(t, ev, acp.ElicitOpen)
	clock.advance(5 * time.Second) // both open
	if err := s.AnswerPermission(perm.RequestID, "ok"); err != nil {
		t.Fatal(err)
	}
	clock.advance(3 * time.Second) // the elicitation alone
	if err := s.AnswerElicitation(el.RequestID, acp.ElicitDecline, nil); err != nil {
		t.Fatal(err)
	}
	g.pass(t, clock, time.Second) // nothing open: the agent runs a command
	ev.waitFor(t, "second permission", func(e acp.Event) bool { return e.Kind == acp.EventPermission && e.RequestID != perm.RequestID })
	clock.advance(2 * time.Second) // the second request, until Stop cancels it
	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	end := ev.waitFor(t, "turn_end", kind(acp.EventTurnEnd))
	r := end.Receipt
	if r.WaitMs != 10_000 || r.WallMs != 11_000 {
		t.Fatalf("waited %d ms of %d, want 10000 of 11000", r.WaitMs, r.WallMs)
	}
	if len(r.Decisions) != 2 || r.Decisions[0].DecidedBy != acp.DecidedByUser || r.Decisions[1].Outcome != "cancelled" ||
		r.Decisions[1].DecidedBy != acp.DecidedByCancel || r.Decisions[1].Title != "Delete b.go" {
		t.Fatalf("decisions %+v", r.Decisions)
	}
	if len(r.Questions) != 1 || r.Questions[0].State != acp.ElicitDeclined {
		t.Fatalf("questions %+v", r.Questions)
	}
}
