package acp_test

import (
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/acptest"
	"agentdesk/backend/acp/schema"
)

func script(t *testing.T, js string) acptest.Script {
	t.Helper()
	var s acptest.Script
	if err := json.Unmarshal([]byte(js), &s); err != nil {
		t.Fatal(err)
	}
	return s
}

// handshake is the start of every script: initialize and session/new.
const handshake = `
 {"expect":"initialize"}, {"reply":{"protocolVersion":1,"agentCapabilities":{}}},
 {"expect":"session/new"}, {"reply":{"sessionId":"sc1"}},`

func startScript(t *testing.T, steps string) (*acp.Session, *events) {
	t.Helper()
	return runScript(t, script(t, "["+handshake+steps+"]"), nil)
}

// runScript starts (or, with a seed, reopens) a session against sc; each of set changes its
// config first.
func runScript(t *testing.T, sc acptest.Script, seed *acp.Seed, set ...func(*acp.Config)) (*acp.Session, *events) {
	t.Helper()
	ev := newEvents()
	cfg := acp.Config{ID: "s1", AgentName: "scripted", Cwd: "/p", Emitter: ev, Logf: t.Logf, Seed: seed,
		Launch: func(context.Context) (acp.Transport, error) {
			return acptest.Serve(func(in io.Reader, out io.Writer) error { return sc.Run(in, out) }), nil
		}}
	for _, f := range set {
		f(&cfg)
	}
	s := acp.NewSession(cfg)
	t.Cleanup(func() { s.Close() })
	var err error
	if seed != nil {
		_, err = s.Reopen(context.Background())
	} else {
		err = s.Start(context.Background())
	}
	if err != nil {
		t.Fatal(err)
	}
	return s, ev
}

func TestScriptOddIdsNoiseAndUnknownKinds(t *testing.T) {
	s, ev := startScript(t, `
 {"expect":"session/prompt"},
 {"send":"> npm WARN deprecated something"},
 {"send":"{\"jsonrpc\":\"2.0\",\"method\":\"session/update\",\"params\":{\"sessionId\":\"sc1\",\"update\":"},
 {"update":{"sessionUpdate":"notice","level":"info","text":"compacting"}},
 {"update":{"sessionUpdate":"tool_call_update","toolCallId":"t9","status":"in_progress"}},
 {"update":{"sessionUpdate":"agent_message_chunk","content":{"type":"hologram","data":"?"}}},
 {"call":"session/request_permission","id":0,"params":{"toolCall":{"toolCallId":"t9","title":"Run rm"},"options":[{"optionId":"no","name":"Reject","kind":"reject_once"}]},"want":"\"optionId\":\"no\""},
 {"call":"session/request_permission","id":"p-1","params":{"toolCall":{"toolCallId":"t9"},"options":[{"optionId":"ok","name":"Allow","kind":"allow_once"}]},"want":"\"optionId\":\"ok\""},
 {"call":"_acme/telemetry","want":"-32601"},
 {"error":{"code":500,"message":"exception TypeError: fetch failed","data":{"cause":"ENOTFOUND"}}}`)
	if _, err := s.Prompt("go"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []struct{ id, option string }{{"0", "no"}, {`"p-1"`, "ok"}} {
		p := ev.waitFor(t, "permission", kind(acp.EventPermission))
		if p.RequestID != want.id {
			t.Fatalf("request id %s, want %s (echoed as sent)", p.RequestID, want.id)
		}
		if err := s.AnswerPermission(p.RequestID, want.option); err != nil {
			t.Fatal(err)
		}
	}
	end := ev.waitFor(t, "turn_end", kind(acp.EventTurnEnd))
	if end.StopReason != schema.StopError || !strings.Contains(end.Message, "fetch failed") || !strings.Contains(end.Message, "ENOTFOUND") {
		t.Fatalf("turn_end %+v, want the agent's code-500 message and data", end)
	}
	var kinds []string
	for _, e := range s.Snapshot().Entries {
		kinds = append(kinds, string(e.Kind)+":"+e.UpdateKind+e.Status)
	}
	got := strings.Join(kinds, " ")
	if got != "user: unknown:notice tool:incomplete unknown:agent_message_chunk/hologram error:" {
		t.Fatalf("entries: %s", got)
	}
}

// TestOpenToolsAtTurnEnd: like Gemini CLI after a rejection, the agent ends the turn with a
// call still pending, and its card says "not completed"; a call that comes in after Stop is
// cancelled with the rest.
func TestOpenToolsAtTurnEnd(t *testing.T) {
	s, ev := startScript(t, `
 {"expect":"session/prompt"},
 {"update":{"sessionUpdate":"tool_call","toolCallId":"t1","title":"Edit a.go","kind":"edit","status":"pending"}},
 {"update":{"sessionUpdate":"tool_call","toolCallId":"t2","title":"Read b.go","kind":"read","status":"completed"}},
 {"call":"session/request_permission","id":7,"params":{"toolCall":{"toolCallId":"t1"},"options":[{"optionId":"no","name":"Reject","kind":"reject_once"}]},"want":"\"optionId\":\"no\""},
 {"reply":{"stopReason":"end_turn"}},
 {"expect":"session/prompt"},
 {"update":{"sessionUpdate":"tool_call","toolCallId":"t3","title":"Run make","kind":"execute","status":"in_progress"}},
 {"expect":"session/cancel"},
 {"update":{"sessionUpdate":"tool_call","toolCallId":"t4","title":"Late","kind":"other"}},
 {"reply":{"stopReason":"cancelled"}}`)
	if _, err := s.Prompt("edit"); err != nil {
		t.Fatal(err)
	}
	answerNext(t, s, ev, schema.RejectOnce)
	ev.waitFor(t, "turn 1's end", kind(acp.EventTurnEnd))
	if got := toolStatuses(s); got != "t1:incomplete t2:completed" {
		t.Fatalf("after turn 1: %s", got)
	}
	if _, err := s.Prompt("build"); err != nil {
		t.Fatal(err)
	}
	ev.waitFor(t, "t3", func(e acp.Event) bool { return e.Kind == acp.EventEntry && e.Entry.ToolCallID == "t3" })
	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	ev.waitFor(t, "turn 2's end", kind(acp.EventTurnEnd))
	if got := toolStatuses(s); got != "t1:incomplete t2:completed t3:cancelled t4:cancelled" {
		t.Fatalf("after Stop: %s", got)
	}
	snap := s.Snapshot()
	assertFoldEqualsSnapshot(t, ev.upTo(t, snap.Seq), snap)
}

func toolStatuses(s *acp.Session) string {
	var out []string
	for _, e := range s.Snapshot().Entries {
		if e.Kind == acp.KindTool {
			out = append(out, e.ToolCallID+":"+e.Status)
		}
	}
	return strings.Join(out, " ")
}

func TestListAndCloseAgentSessions(t *testing.T) {
	sc := script(t, `[
 {"expect":"initialize"}, {"reply":{"protocolVersion":1,"agentCapabilities":{"sessionCapabilities":{"list":{},"close":{}}}}},
 {"expect":"session/new"}, {"reply":{"sessionId":"sc1"}},
 {"expect":"session/list"}, {"reply":{"sessions":[{"sessionId":"old","cwd":"/p","title":"Earlier work"}],"nextCursor":"c2"}},
 {"expect":"session/list"}, {"reply":{"sessions":[]}},
 {"expect":"session/close"}, {"reply":{}}]`)
	var tr *acptest.Transport
	s := acp.NewSession(acp.Config{ID: "s1", AgentName: "scripted", Cwd: "/p", Emitter: newEvents(), Logf: t.Logf,
		Launch: func(context.Context) (acp.Transport, error) {
			tr = acptest.Serve(func(in io.Reader, out io.Writer) error { return sc.Run(in, out) })
			return tr, nil
		}})
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	page, err := s.ListAgentSessions(context.Background(), "")
	if err != nil || len(page.Sessions) != 1 || page.Sessions[0].Title != "Earlier work" || page.NextCursor != "c2" {
		t.Fatalf("first page %+v, %v", page, err)
	}
	if page, err = s.ListAgentSessions(context.Background(), page.NextCursor); err != nil || len(page.Sessions) != 0 {
		t.Fatalf("second page %+v, %v", page, err)
	}
	s.Close()
	if st := tr.ExitStatus(); st != "exit status 0" {
		t.Fatalf("the script ended with %q: session/close was not sent before the agent was stopped", st)
	}
}

// TestCloseStopsTheTurn: closing a session (the app quits) while a permission is open answers it
// cancelled, as Stop would, and the turn is saved as cancelled, not as failed.
func TestCloseStopsTheTurn(t *testing.T) {
	sc := script(t, "["+handshake+`
 {"expect":"session/prompt"},
 {"call":"session/request_permission","params":{"toolCall":{"toolCallId":"t1","title":"Run rm"},"options":[{"optionId":"ok","name":"Allow","kind":"allow_once"}]},"want":"\"outcome\":\"cancelled\""},
 {"reply":{"stopReason":"cancelled"}}]`)
	ran := make(chan error, 1)
	ev := newEvents()
	s := acp.NewSession(acp.Config{ID: "s1", AgentName: "scripted", Cwd: "/p", Emitter: ev, Logf: t.Logf,
		Launch: func(context.Context) (acp.Transport, error) {
			return acptest.Serve(func(in io.Reader, out io.Writer) error { err := sc.Run(in, out); ran <- err; return err }), nil
		}})
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Prompt("clean up"); err != nil {
		t.Fatal(err)
	}
	ev.waitFor(t, "permission", kind(acp.EventPermission))
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := <-ran; err != nil {
		t.Fatalf("the agent's script: %v", err)
	}
	end := ev.waitFor(t, "turn_end", kind(acp.EventTurnEnd))
	if end.StopReason != schema.StopCancelled {
		t.Fatalf("turn_end %+v, want cancelled", end)
	}
	if got := toolStatuses(s); got != "t1:cancelled" {
		t.Fatalf("tool calls: %s", got)
	}
}

// TestStopRightAfterPrompt: Stop at once after Prompt (Esc just after Enter) still sends
// session/cancel after session/prompt. Sent first, the cancel would be for nothing, and the turn
// would run on in state cancelling until the automatic hard stop killed the agent.
func TestStopRightAfterPrompt(t *testing.T) {
	for range 20 {
		sc := script(t, "["+handshake+`{"expect":"session/prompt"}, {"expect":"session/cancel"}, {"reply":{"stopReason":"cancelled"}}]`)
		j := &journal{feed: make(chan string, 100)}
		ev := newEvents()
		s := acp.NewSession(acp.Config{ID: "s1", AgentName: "scripted", Cwd: "/p", Emitter: ev, Logf: t.Logf,
			Journal: j.record, HardStopAfter: -1,
			Launch: func(context.Context) (acp.Transport, error) {
				return acptest.Serve(func(in io.Reader, out io.Writer) error { return sc.Run(in, out) }), nil
			}})
		if err := s.Start(context.Background()); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Prompt("go"); err != nil {
			t.Fatal(err)
		}
		if err := s.Stop(); err != nil {
			t.Fatal(err)
		}
		j.waitFor(t, "the cancel", func(l string) bool { return strings.HasPrefix(l, "out session/cancel") })
		var sent []string
		j.mu.Lock()
		for _, l := range j.lines {
			if method := strings.Fields(l)[1]; strings.HasPrefix(l, "out ") && strings.HasPrefix(method, "session/") {
				sent = append(sent, method)
			}
		}
		j.mu.Unlock()
		if got := strings.Join(sent, " "); got != "session/new session/prompt session/cancel" {
			t.Fatalf("sent %s", got)
		}
		if end := ev.waitFor(t, "turn_end", kind(acp.EventTurnEnd)); end.StopReason != schema.StopCancelled {
			t.Fatalf("turn_end %+v", end)
		}
		s.Close()
	}
}

// TestPermissionWithOddMeta: a permission request whose tool call carries _meta of a shape we do
// not know is still a prompt (it was refused as invalid params, and the agent's turn stalled).
func TestPermissionWithOddMeta(t *testing.T) {
	s, ev := startScript(t, `
 {"expect":"session/prompt"},
 {"call":"session/request_permission","params":{"toolCall":{"toolCallId":"t1","title":"Run ls","_meta":{"terminal_output":"just text","terminal_info":[1,2]}},"options":[{"optionId":"ok","name":"Allow","kind":"allow_once"}]},"want":"\"optionId\":\"ok\""},
 {"call":"session/request_permission","params":{"toolCall":{"toolCallId":"t2","title":"Run pwd","_meta":"plain"},"options":[{"optionId":"ok","name":"Allow","kind":"allow_once"}]},"want":"\"optionId\":\"ok\""},
 {"reply":{"stopReason":"end_turn"}}`)
	if _, err := s.Prompt("go"); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		answerNext(t, s, ev, schema.AllowOnce)
	}
	if end := ev.waitFor(t, "turn_end", kind(acp.EventTurnEnd)); end.StopReason != schema.StopEndTurn {
		t.Fatalf("turn_end %+v", end)
	}
}
