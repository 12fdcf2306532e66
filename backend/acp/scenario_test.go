package acp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/acptest"
	"agentdesk/backend/acp/jsonrpc"
	"agentdesk/backend/acp/schema"
)

// promptAgent is an in-process agent whose turns are scripted by onPrompt; it runs on its own
// goroutine and must reply to req once. onNew, when set, answers session/new the same way.
type promptAgent struct {
	quiet    // notifications
	conn     *jsonrpc.Conn
	onPrompt func(c *jsonrpc.Conn, req *jsonrpc.Request)
	onNew    func(c *jsonrpc.Conn, req *jsonrpc.Request)
}

func (a *promptAgent) HandleRequest(req *jsonrpc.Request) {
	switch req.Method {
	case schema.MethodInitialize:
		replyInitialize(req)
	case schema.MethodSessionNew:
		if a.onNew != nil {
			go a.onNew(a.conn, req)
			return
		}
		req.Reply(map[string]any{"sessionId": "p1"}, nil)
	case schema.MethodSessionPrompt:
		go a.onPrompt(a.conn, req)
	default:
		req.Reply(nil, &jsonrpc.Error{Code: schema.CodeMethodNotFound, Message: req.Method})
	}
}

// startScripted starts a session against a promptAgent, with emitter (nil: a fresh *events).
func startScripted(t *testing.T, cwd string, emitter acp.Emitter, onPrompt func(*jsonrpc.Conn, *jsonrpc.Request)) *acp.Session {
	t.Helper()
	s := acp.NewSession(acp.Config{ID: "s1", AgentName: "scripted", Cwd: cwd, Emitter: emitter, Logf: t.Logf,
		Launch: func(context.Context) (acp.Transport, error) {
			return acptest.ServeHandler(func(c *jsonrpc.Conn) jsonrpc.Handler { return &promptAgent{onPrompt: onPrompt, conn: c} }), nil
		}})
	t.Cleanup(func() { s.Close() })
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	return s
}

// askPermission sends session/request_permission for tool call id, offering one option: "ok"
// (allow once). Wait on the result for the answer.
func askPermission(c *jsonrpc.Conn, id, title string) (*jsonrpc.Pending, error) {
	return c.Start(schema.MethodRequestPermission, map[string]any{"sessionId": "p1",
		"toolCall": map[string]any{"toolCallId": id, "title": title},
		"options":  []schema.PermissionOption{{OptionID: "ok", Name: "Allow", Kind: schema.AllowOnce}}})
}

func sendUpdate(c *jsonrpc.Conn, u string) {
	_ = c.Notify(schema.MethodSessionUpdate, map[string]any{"sessionId": "p1", "update": json.RawMessage(u)})
}

func TestAgentWritesAndReadsThroughTheClient(t *testing.T) {
	dir := t.TempDir()
	ev := newEvents()
	results := make(chan string, 3)
	s := startScripted(t, dir, ev, func(c *jsonrpc.Conn, req *jsonrpc.Request) {
		ctx := context.Background()
		path := filepath.Join(dir, "src", "main.go")
		err := c.Call(ctx, schema.MethodWriteTextFile, schema.WriteTextFileParams{SessionID: "p1", Path: path, Content: "package main\n"}, nil)
		results <- fmt.Sprint("write: ", err)
		var read struct{ Content string }
		err = c.Call(ctx, schema.MethodReadTextFile, schema.ReadTextFileParams{SessionID: "p1", Path: path}, &read)
		results <- fmt.Sprintf("read: %q %v", read.Content, err)
		err = c.Call(ctx, schema.MethodReadTextFile, schema.ReadTextFileParams{SessionID: "p1", Path: "/etc/passwd"}, &read)
		results <- fmt.Sprint("outside: ", err)
		req.Reply(schema.PromptResult{StopReason: schema.StopEndTurn}, nil)
	})
	if _, err := s.Prompt("write a file"); err != nil {
		t.Fatal(err)
	}
	if got := <-results; got != "write: <nil>" {
		t.Fatal(got)
	}
	if got := <-results; got != `read: "package main\n" <nil>` {
		t.Fatal(got)
	}
	if got := <-results; !strings.Contains(got, "outside the session folder") {
		t.Fatalf("reading /etc/passwd: %s", got)
	}
	ev.waitFor(t, "turn_end", kind(acp.EventTurnEnd))
	if data, err := os.ReadFile(filepath.Join(dir, "src", "main.go")); err != nil || string(data) != "package main\n" {
		t.Fatalf("file on disk: %q %v", data, err)
	}
}

func TestPermissionForUnannouncedToolCall(t *testing.T) {
	ev := newEvents()
	s := startScripted(t, t.TempDir(), ev, func(c *jsonrpc.Conn, req *jsonrpc.Request) {
		var res schema.RequestPermissionResult
		// Gemini CLI asks about a tool call it never announced, carrying the diff in the request.
		_ = c.Call(context.Background(), schema.MethodRequestPermission, json.RawMessage(`{"sessionId":"p1",
			"toolCall":{"toolCallId":"ghost","title":"Write a.txt","kind":"edit","content":[{"type":"diff","path":"/p/a.txt","newText":"x"}]},
			"options":[{"optionId":"a","name":"Allow always","kind":"allow_always"},{"optionId":"o","name":"Allow","kind":"allow_once"}]}`), &res)
		sendUpdate(c, `{"sessionUpdate":"tool_call_update","toolCallId":"ghost","status":"completed"}`)
		req.Reply(schema.PromptResult{StopReason: schema.StopEndTurn}, nil)
	})
	if _, err := s.Prompt("go"); err != nil {
		t.Fatal(err)
	}
	p := ev.waitFor(t, "permission", kind(acp.EventPermission))
	card, ok := func() (acp.Entry, bool) {
		for _, e := range s.Snapshot().Entries {
			if e.ID == p.ToolCallID {
				return e, true
			}
		}
		return acp.Entry{}, false
	}()
	if !ok || card.Title != "Write a.txt" || card.Content[0].Type != "diff" {
		t.Fatalf("card for the unannounced tool call: %+v (found %v)", card, ok)
	}
	// The policy never picks an *_always option, even when it is listed first.
	if id := acp.PolicyOption("allow", p.Options); id != "o" {
		t.Fatalf("policy picked %q, want the allow_once option", id)
	}
	if err := s.AnswerPermission(p.RequestID, "o"); err != nil {
		t.Fatal(err)
	}
	ev.waitFor(t, "turn_end", kind(acp.EventTurnEnd))
	var tools int
	for _, e := range s.Snapshot().Entries {
		if e.Kind == acp.KindTool {
			tools++
		}
	}
	if tools != 1 {
		t.Fatalf("%d tool cards, want the one upserted by id", tools)
	}
}

func TestEveryStopReasonAndAgentError(t *testing.T) {
	replies := []func(*jsonrpc.Request){}
	for _, r := range []string{schema.StopEndTurn, schema.StopMaxTokens, schema.StopMaxTurnRequests, schema.StopRefusal, schema.StopCancelled} {
		replies = append(replies, func(req *jsonrpc.Request) { req.Reply(schema.PromptResult{StopReason: r}, nil) })
	}
	replies = append(replies, func(req *jsonrpc.Request) {
		req.Reply(nil, &jsonrpc.Error{Code: -32603, Message: "Internal error", Data: json.RawMessage(`{"message":"stream disconnected"}`)})
	})
	var turn atomic.Int32
	ev := newEvents()
	s := startScripted(t, t.TempDir(), ev, func(c *jsonrpc.Conn, req *jsonrpc.Request) { replies[turn.Add(1)-1](req) })
	want := []string{schema.StopEndTurn, schema.StopMaxTokens, schema.StopMaxTurnRequests, schema.StopRefusal, schema.StopCancelled, schema.StopError}
	for i, w := range want {
		if _, err := s.Prompt(fmt.Sprint("turn ", i)); err != nil {
			t.Fatal(err)
		}
		end := ev.waitFor(t, "turn_end", kind(acp.EventTurnEnd))
		if end.StopReason != w || end.Turn != i+1 {
			t.Fatalf("turn %d ended %+v, want %s", i+1, end, w)
		}
		if w == schema.StopError && !strings.Contains(end.Message, "stream disconnected") {
			t.Fatalf("the error's data is missing from %q", end.Message)
		}
		ev.waitFor(t, "idle", func(e acp.Event) bool { return e.Kind == acp.EventState && e.State == acp.StateIdle })
	}
	last := s.Snapshot().Entries
	if e := last[len(last)-1]; e.Kind != acp.KindError || !strings.Contains(string(e.Data), "stream disconnected") {
		t.Fatalf("last entry %+v, want the error with its data", e)
	}
}

// gatedEmitter holds every event until open is closed: a consumer as slow as can be.
type gatedEmitter struct {
	open chan struct{}
	*events
}

var _ acp.Emitter = gatedEmitter{}

func (g gatedEmitter) Emit(ev acp.Event) {
	<-g.open
	g.events.Emit(ev)
}

// TestFloodIntoBlockedConsumer: 100,000 updates while the UI consumes nothing. The agent can
// send them all (the protocol never waits on the consumer), nothing is dropped, order is kept,
// and the connection stays up.
func TestFloodIntoBlockedConsumer(t *testing.T) {
	const n = 100_000
	sent := make(chan struct{})
	g := gatedEmitter{open: make(chan struct{}), events: newEvents()}
	var want strings.Builder
	for i := range n {
		fmt.Fprintf(&want, "%d,", i)
	}
	s := startScripted(t, t.TempDir(), g, func(c *jsonrpc.Conn, req *jsonrpc.Request) {
		for i := range n {
			sendUpdate(c, fmt.Sprintf(`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"%d,"}}`, i))
		}
		close(sent)
		req.Reply(schema.PromptResult{StopReason: schema.StopEndTurn}, nil)
	})
	if _, err := s.Prompt("flood"); err != nil {
		t.Fatal(err)
	}
	<-sent // every line was read by our connection while the consumer was blocked (Start did not wait on it either)
	close(g.open)
	g.waitFor(t, "turn_end", kind(acp.EventTurnEnd))
	snap := s.Snapshot()
	if len(snap.Entries) != 2 || snap.Entries[1].Text != want.String() {
		t.Fatalf("message has %d bytes, want %d in order", len(snap.Entries[1].Text), want.Len())
	}
	evs := g.upTo(t, snap.Seq)
	assertSeqContiguous(t, evs)
	assertFoldEqualsSnapshot(t, evs, snap)
	if len(evs) > n/10 {
		t.Errorf("%d events for %d chunks: chunks were not coalesced behind the slow consumer", len(evs), n)
	}
}
