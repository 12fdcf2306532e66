package acp_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/acptest"
	"agentdesk/backend/acp/jsonrpc"
	"agentdesk/backend/acp/schema"
)

// subagentAgent is promptAgent that also tells the test the notifications it gets (session/cancel)
// and what it advertised in initialize.
type subagentAgent struct {
	promptAgent
	notes chan string // "method sessionId"
	caps  chan json.RawMessage
}

func (a *subagentAgent) HandleRequest(req *jsonrpc.Request) {
	if req.Method == schema.MethodInitialize {
		var p struct {
			ClientCapabilities json.RawMessage `json:"clientCapabilities"`
		}
		_ = json.Unmarshal(req.Params, &p)
		a.caps <- p.ClientCapabilities
	}
	a.promptAgent.HandleRequest(req)
}

func (a *subagentAgent) HandleNotification(method string, params json.RawMessage) {
	var p struct {
		SessionID string `json:"sessionId"`
	}
	_ = json.Unmarshal(params, &p)
	a.notes <- method + " " + p.SessionID
}

// startSubagents starts a session whose agent plays onPrompt, and returns it with its events,
// the agent's notifications and the client capabilities the agent was told.
func startSubagents(t *testing.T, cwd string, onPrompt func(*jsonrpc.Conn, *jsonrpc.Request)) (*acp.Session, *events, chan string, json.RawMessage) {
	t.Helper()
	ev := newEvents()
	notes, caps := make(chan string, 64), make(chan json.RawMessage, 1)
	s := acp.NewSession(acp.Config{ID: "s1", AgentName: "scripted", Cwd: cwd, Emitter: ev, Logf: t.Logf,
		Launch: func(context.Context) (acp.Transport, error) {
			return acptest.ServeHandler(func(c *jsonrpc.Conn) jsonrpc.Handler {
				return &subagentAgent{promptAgent: promptAgent{onPrompt: onPrompt, conn: c}, notes: notes, caps: caps}
			}), nil
		}})
	t.Cleanup(func() { s.Close() })
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	return s, ev, notes, <-caps
}

// announce is a subagent_update for child id on session host, with extra fields (JSON members).
func announce(c *jsonrpc.Conn, host, id, extra string) {
	_ = c.Notify(schema.MethodSessionUpdate, map[string]any{"sessionId": host,
		"update": json.RawMessage(fmt.Sprintf(`{"sessionUpdate":"subagent_update","sessionId":%q%s}`, id, extra))})
}

// updateOn sends an update on session id.
func updateOn(c *jsonrpc.Conn, id, u string) {
	_ = c.Notify(schema.MethodSessionUpdate, map[string]any{"sessionId": id, "update": json.RawMessage(u)})
}

// subagentCards are the subagent entries of the session's own events (the latest of each).
func subagentCards(ev *events) map[string]acp.Subagent {
	out := map[string]acp.Subagent{}
	for _, e := range ev.list() {
		if e.SessionID == "s1" && e.Kind == acp.EventEntry && e.Entry.Kind == acp.KindSubagent {
			out[e.Entry.ID] = *e.Entry.Subagent
		}
	}
	return out
}

func turnEnded(ev acp.Event) bool { return ev.Kind == acp.EventTurnEnd && ev.SessionID == "s1" }

// The client opts in to subagents and compaction in initialize; an announced child gets an id of
// agentdesk's own, a card in its parent's transcript (title, description, state, cancel), and its
// own stream of events (its id, its parent's id) that its updates go to, not the parent's.
func TestSubagentAnnouncedGetsItsOwnTranscript(t *testing.T) {
	s, ev, _, caps := startSubagents(t, t.TempDir(), func(c *jsonrpc.Conn, req *jsonrpc.Request) {
		announce(c, "p1", "child-1", `,"title":"Explore\u202e the repo","description":"find tests","capabilities":{"cancel":{}},"state":{"state":"running"}`)
		updateOn(c, "child-1", `{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"looking"}}`)
		updateOn(c, "child-1", `{"sessionUpdate":"tool_call","toolCallId":"t1","title":"Read a.go","kind":"read","status":"completed"}`)
		announce(c, "p1", "child-1", `,"state":{"state":"idle","stopReason":"end_turn"}`)
		sendUpdate(c, `{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"done"}}`)
		req.Reply(map[string]any{"stopReason": "end_turn"}, nil)
	})
	var got struct {
		Subagents *struct{} `json:"subagents"`
		Session   struct {
			Compaction *struct{} `json:"compaction"`
		} `json:"session"`
	}
	if err := json.Unmarshal(caps, &got); err != nil || got.Subagents == nil || got.Session.Compaction == nil {
		t.Fatalf("initialize advertised %s: want subagents and session.compaction", caps)
	}
	if _, err := s.Prompt("go"); err != nil {
		t.Fatal(err)
	}
	ev.waitFor(t, "turn end", turnEnded)

	cards := subagentCards(ev)
	if len(cards) != 1 {
		t.Fatalf("%d subagent cards, want 1: %+v", len(cards), cards)
	}
	var card acp.Subagent
	for _, c := range cards {
		card = c
	}
	if card.SessionID == "" || card.SessionID == "child-1" || card.ParentID != "s1" || card.AgentSessionID != "child-1" {
		t.Errorf("card ids %+v: want an id of our own, parent s1, the agent's id kept", card)
	}
	if card.Title != "Explore the repo" || card.Description != "find tests" || !card.Cancel || card.State != acp.SubagentIdle || card.StopReason != "end_turn" {
		t.Errorf("card %+v: want the title without its bidi override, the description, cancel, idle after end_turn", card)
	}
	var childText []string
	for _, e := range ev.list() {
		if e.SessionID == card.SessionID {
			if e.ParentID != "s1" {
				t.Errorf("child event %+v without its parent", e)
			}
			if e.Kind == acp.EventEntry {
				childText = append(childText, string(e.Entry.Kind)+":"+e.Entry.Text+e.Entry.Title)
			}
		}
	}
	if strings.Join(childText, "|") != "agent:looking|tool:Read a.go" {
		t.Errorf("child entries %q, want its message and its tool call", childText)
	}
	for _, e := range s.Snapshot().Entries {
		if e.Text == "looking" || e.Title == "Read a.go" {
			t.Errorf("the child's %s entry is in the parent's transcript", e.Kind)
		}
	}
	if subs := s.Subagents(); len(subs) != 1 || subs[0].SessionID != card.SessionID {
		t.Errorf("Subagents() = %+v", subs)
	}
}

// A permission asked inside a child goes through the parent's desk: the person is asked in the
// parent's view, the request named by the child, and the card is the child's.
func TestSubagentPermissionIsAskedInTheParentsView(t *testing.T) {
	answer := make(chan string, 1)
	s, ev, _, _ := startSubagents(t, t.TempDir(), func(c *jsonrpc.Conn, req *jsonrpc.Request) {
		announce(c, "p1", "child-1", `,"title":"Explore"`)
		p, err := c.Start(schema.MethodRequestPermission, map[string]any{"sessionId": "child-1",
			"toolCall": map[string]any{"toolCallId": "t1", "title": "Run ls", "kind": "execute"},
			"options":  []schema.PermissionOption{{OptionID: "ok", Name: "Allow", Kind: schema.AllowOnce}}})
		if err != nil {
			answer <- err.Error()
		} else {
			var r schema.RequestPermissionResult
			err := p.Wait(context.Background(), &r)
			answer <- fmt.Sprint(r.Outcome.OptionID, err)
		}
		req.Reply(map[string]any{"stopReason": "end_turn"}, nil)
	})
	if _, err := s.Prompt("go"); err != nil {
		t.Fatal(err)
	}
	asked := ev.waitFor(t, "permission", kind(acp.EventPermission))
	if asked.SessionID != "s1" || asked.Title != "Explore: Run ls" || asked.ToolCallID != "" {
		t.Errorf("asked %+v: want it in s1's view, named by the child, with no card of the parent", asked)
	}
	if err := s.AnswerPermission(asked.RequestID, "ok"); err != nil {
		t.Fatal(err)
	}
	if got := acptest.Await(t, answer, "the agent's answer", func(string) bool { return true }); got != "ok<nil>" {
		t.Errorf("the agent got %q, want ok", got)
	}
	ev.waitFor(t, "turn end", turnEnded)
	card := false
	for _, e := range ev.list() {
		if e.Kind == acp.EventEntry && e.Entry.Kind == acp.KindTool && e.Entry.Title == "Run ls" {
			card = e.ParentID == "s1" && e.SessionID != "s1"
		}
	}
	if !card {
		t.Error("the tool card of the child's permission is not in the child's transcript")
	}
}

// Cancelling one child sends session/cancel naming that child only, answers its open permission
// cancelled, and leaves the parent's turn and the sibling running; a child the agent did not let
// be cancelled is refused, and so is an id that is no child.
func TestCancelOneSubagentLeavesTheOthersRunning(t *testing.T) {
	proceed, answer := make(chan struct{}), make(chan string, 1)
	s, ev, notes, _ := startSubagents(t, t.TempDir(), func(c *jsonrpc.Conn, req *jsonrpc.Request) {
		announce(c, "p1", "a", `,"title":"A","capabilities":{"cancel":{}},"state":{"state":"running"}`)
		announce(c, "p1", "b", `,"title":"B","capabilities":{"cancel":{}},"state":{"state":"running"}`)
		announce(c, "p1", "c", `,"title":"C","state":{"state":"running"}`)
		p, _ := c.Start(schema.MethodRequestPermission, map[string]any{"sessionId": "a",
			"toolCall": map[string]any{"toolCallId": "t1", "title": "Edit"},
			"options":  []schema.PermissionOption{{OptionID: "ok", Name: "Allow", Kind: schema.AllowOnce}}})
		<-proceed
		var r schema.RequestPermissionResult
		_ = p.Wait(context.Background(), &r)
		answer <- r.Outcome.Outcome
		announce(c, "p1", "a", `,"state":{"state":"idle","stopReason":"cancelled"}`)
		updateOn(c, "b", `{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"b still works"}}`)
		sendUpdate(c, `{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"parent still works"}}`)
		req.Reply(map[string]any{"stopReason": "end_turn"}, nil)
	})
	if _, err := s.Prompt("go"); err != nil {
		t.Fatal(err)
	}
	ev.waitFor(t, "the child's permission", kind(acp.EventPermission))
	ids := map[string]string{}
	for _, c := range subagentCards(ev) {
		ids[c.Title] = c.SessionID
	}
	if err := s.CancelSubagent(ids["C"]); !errors.Is(err, acp.ErrSubagentNoCancel) {
		t.Errorf("cancel C: %v, want ErrSubagentNoCancel", err)
	}
	if err := s.CancelSubagent("s1"); !errors.Is(err, acp.ErrNoSuchSubagent) {
		t.Errorf("cancel the session itself as a child: %v, want ErrNoSuchSubagent", err)
	}
	if err := s.CancelSubagent(ids["A"]); err != nil {
		t.Fatal(err)
	}
	if got := acptest.Await(t, notes, "session/cancel", func(string) bool { return true }); got != "session/cancel a" {
		t.Errorf("the agent was sent %q, want session/cancel for child a", got)
	}
	close(proceed)
	if got := acptest.Await(t, answer, "the permission's answer", func(string) bool { return true }); got != "cancelled" {
		t.Errorf("child a's permission was answered %q, want cancelled", got)
	}
	end := ev.waitFor(t, "turn end", turnEnded)
	if end.StopReason != "end_turn" {
		t.Errorf("the parent's turn ended %q, want end_turn", end.StopReason)
	}
	var sibling, parent bool
	for _, e := range ev.list() {
		if e.Kind == acp.EventEntry && e.Entry.Text == "b still works" {
			sibling = e.SessionID == ids["B"]
		}
		if e.Kind == acp.EventEntry && e.Entry.Text == "parent still works" {
			parent = e.SessionID == "s1"
		}
	}
	if !sibling || !parent {
		t.Errorf("after cancelling A: sibling B's update shown %v, the parent's %v", sibling, parent)
	}
	select {
	case n := <-notes:
		t.Errorf("the agent was also sent %q", n)
	default:
	}
}

// An agent that floods is bounded: at most MaxSubagents children and MaxSubagentDepth levels
// are followed, one notice says so, and what the refused ones send is dropped.
func TestSubagentFloodIsRefusedPastTheLimit(t *testing.T) {
	s, ev, _, _ := startSubagents(t, t.TempDir(), func(c *jsonrpc.Conn, req *jsonrpc.Request) {
		// A chain one deeper than allowed, then siblings past the bound.
		host := "p1"
		for d := 1; d <= acp.MaxSubagentDepth+1; d++ {
			id := fmt.Sprintf("deep-%d", d)
			announce(c, host, id, `,"title":"level `+fmt.Sprint(d)+`"`)
			host = id
		}
		updateOn(c, host, `{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"too deep"}}`)
		for i := range acp.MaxSubagents + 5 {
			announce(c, "p1", fmt.Sprintf("flood-%d", i), `,"title":"flood"`)
		}
		updateOn(c, fmt.Sprintf("flood-%d", acp.MaxSubagents+4), `{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"past the bound"}}`)
		req.Reply(map[string]any{"stopReason": "end_turn"}, nil)
	})
	if _, err := s.Prompt("go"); err != nil {
		t.Fatal(err)
	}
	ev.waitFor(t, "turn end", turnEnded)
	var cards, notices int
	seen := map[string]bool{}
	for _, e := range ev.list() {
		if e.Kind != acp.EventEntry {
			continue
		}
		switch {
		case e.Entry.Kind == acp.KindSubagent && !seen[e.Entry.Subagent.SessionID]:
			seen[e.Entry.Subagent.SessionID] = true
			cards++
			if e.Entry.Subagent.Title == fmt.Sprintf("level %d", acp.MaxSubagentDepth+1) {
				t.Errorf("a child %d levels deep was followed", acp.MaxSubagentDepth+1)
			}
		case e.Entry.Kind == acp.KindNotice && e.SessionID == "s1":
			notices++
		case e.Entry.Text == "too deep" || e.Entry.Text == "past the bound":
			t.Errorf("a refused child's update was shown: %+v", e)
		}
	}
	if cards != acp.MaxSubagents || len(s.Subagents()) != acp.MaxSubagents || notices != 1 {
		t.Errorf("%d cards, %d children, %d notices: want %d, %d, 1", cards, len(s.Subagents()), notices, acp.MaxSubagents, acp.MaxSubagents)
	}
}

// A child is confined exactly like its parent, and only announced children are served: an update,
// a permission request or a file request for a session id the agent never announced is refused
// as before, and a child reading outside the session's folder is refused like the parent.
func TestSubagentUnannouncedIsRefusedAndChildIsConfined(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "in.txt"), []byte("inside"), 0o600); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(t.TempDir(), "secret.txt")
	if err := os.WriteFile(outside, []byte("outside"), 0o600); err != nil {
		t.Fatal(err)
	}
	results := make(chan string, 8)
	s, ev, _, _ := startSubagents(t, dir, func(c *jsonrpc.Conn, req *jsonrpc.Request) {
		ctx := context.Background()
		updateOn(c, "ghost", `{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"from a ghost"}}`)
		announce(c, "ghost", "ghost-child", `,"title":"ghost's"`)
		read := func(session, path string) string {
			var r struct{ Content string }
			err := c.Call(ctx, schema.MethodReadTextFile, schema.ReadTextFileParams{SessionID: session, Path: path}, &r)
			var rpcErr *jsonrpc.Error
			if errors.As(err, &rpcErr) {
				return fmt.Sprint(rpcErr.Code)
			}
			return r.Content
		}
		results <- "ghost read: " + read("ghost", filepath.Join(dir, "in.txt"))
		var perm schema.RequestPermissionResult
		err := c.Call(ctx, schema.MethodRequestPermission, map[string]any{"sessionId": "ghost",
			"toolCall": map[string]any{"toolCallId": "t1", "title": "Run"},
			"options":  []schema.PermissionOption{{OptionID: "ok", Name: "Allow", Kind: schema.AllowOnce}}}, &perm)
		var rpcErr *jsonrpc.Error
		results <- fmt.Sprint("ghost permission: ", errors.As(err, &rpcErr) && rpcErr.Code == schema.CodeInvalidParams)
		announce(c, "p1", "child-1", `,"title":"Explore","cwd":"/"`)
		results <- "child read: " + read("child-1", filepath.Join(dir, "in.txt"))
		results <- "child outside: " + read("child-1", outside)
		req.Reply(map[string]any{"stopReason": "end_turn"}, nil)
	})
	if _, err := s.Prompt("go"); err != nil {
		t.Fatal(err)
	}
	ev.waitFor(t, "turn end", turnEnded)
	close(results)
	var got []string
	for r := range results {
		got = append(got, r)
	}
	want := []string{"ghost read: -32602", "ghost permission: true", "child read: inside"}
	if len(got) != 4 || strings.Join(got[:3], "|") != strings.Join(want, "|") || got[3] == "child outside: outside" {
		t.Errorf("got %q, want %q and the outside file refused", got, want)
	}
	for _, e := range ev.list() {
		if e.Kind == acp.EventEntry && (e.Entry.Text == "from a ghost" || e.Entry.Kind == acp.KindSubagent && e.Entry.Subagent.Title == "ghost's") {
			t.Errorf("an unannounced session's update was shown: %+v", e)
		}
		if e.Kind == acp.EventPermission {
			t.Errorf("an unannounced session's permission was put to the person: %+v", e)
		}
	}
	if n := len(s.Subagents()); n != 1 {
		t.Errorf("%d children, want only the announced one", n)
	}
}

// A restored session (Continue, Reopen) keeps its subagent cards, but one that was working reads
// unknown and offers no cancel: the agent process that ran it is gone.
func TestRestoredSubagentCardsAreSettled(t *testing.T) {
	saved := []acp.Entry{
		{ID: "e1", Kind: acp.KindUser, Turn: 1, Text: "go"},
		{ID: "e2", Kind: acp.KindSubagent, Turn: 1, Subagent: &acp.Subagent{SessionID: "c1", ParentID: "s1", Title: "Explore", State: acp.SubagentRunning, Cancel: true}},
		{ID: "e3", Kind: acp.KindSubagent, Turn: 1, Subagent: &acp.Subagent{SessionID: "c2", ParentID: "s1", Title: "Review", State: acp.SubagentIdle, StopReason: "end_turn", Cancel: true}},
	}
	got := acp.RestoreTranscript(saved).Entries()
	if len(got) != 3 {
		t.Fatalf("%d entries restored, want 3", len(got))
	}
	if s := got[1].Subagent; s.State != acp.SubagentUnknown || s.Cancel || s.SessionID != "c1" {
		t.Errorf("a working child restored as %+v, want unknown without cancel", s)
	}
	if s := got[2].Subagent; s.State != acp.SubagentIdle || s.StopReason != "end_turn" || s.Cancel {
		t.Errorf("a finished child restored as %+v, want it as it was, without cancel", s)
	}
	if saved[1].Subagent.State != acp.SubagentRunning {
		t.Error("restoring changed the saved entries")
	}
}
