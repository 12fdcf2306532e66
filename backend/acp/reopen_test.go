package acp_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/acptest"
	"agentdesk/backend/acp/jsonrpc"
	"agentdesk/backend/acp/schema"
)

// savedAgent is an agent that knows a saved session "old-1": it offers caps, refuses the
// methods in refuse, replays the (prompt, reply) pairs of replay on session/load (and on
// session/resume when replayOnResume), and records what it was asked.
type savedAgent struct {
	caps           string
	refuse         map[string]bool
	replay         [][2]string
	replayOnResume bool
	conn           *jsonrpc.Conn

	mu       sync.Mutex
	methods  []string
	reopened string                  // the sessionId sent in session/resume or session/load
	prompts  [][]schema.ContentBlock // each session/prompt's blocks
}

func (a *savedAgent) HandleNotification(string, json.RawMessage) {}

func (a *savedAgent) update(session, u string) {
	_ = a.conn.Notify(schema.MethodSessionUpdate, map[string]any{"sessionId": session, "update": json.RawMessage(u)})
}

func (a *savedAgent) replayAll(session string) {
	for _, r := range a.replay {
		a.update(session, `{"sessionUpdate":"user_message_chunk","content":{"type":"text","text":`+quoteJSON(r[0])+`}}`)
		a.update(session, `{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":`+quoteJSON(r[1])+`}}`)
	}
}

func quoteJSON(s string) string {
	raw, _ := json.Marshal(s)
	return string(raw)
}

func (a *savedAgent) HandleRequest(req *jsonrpc.Request) {
	a.mu.Lock()
	a.methods = append(a.methods, req.Method)
	a.mu.Unlock()
	if a.refuse[req.Method] {
		req.Reply(nil, &jsonrpc.Error{Code: -32603, Message: "no such session"})
		return
	}
	var p struct {
		SessionID string                `json:"sessionId"`
		Prompt    []schema.ContentBlock `json:"prompt"`
	}
	_ = json.Unmarshal(req.Params, &p)
	switch req.Method {
	case schema.MethodInitialize:
		req.Reply(map[string]any{"protocolVersion": 1, "agentCapabilities": json.RawMessage(a.caps)}, nil)
	case schema.MethodSessionNew:
		req.Reply(map[string]any{"sessionId": "fresh"}, nil)
	case acp.MethodSessionResume, acp.MethodSessionLoad:
		a.mu.Lock()
		a.reopened = p.SessionID
		a.mu.Unlock()
		if req.Method == acp.MethodSessionLoad || a.replayOnResume {
			a.replayAll(p.SessionID)
		}
		req.Reply(nil, nil) // session/load may answer null
	case schema.MethodSessionPrompt:
		a.mu.Lock()
		a.prompts = append(a.prompts, p.Prompt)
		a.mu.Unlock()
		a.update(p.SessionID, `{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"done"}}`)
		req.Reply(schema.PromptResult{StopReason: schema.StopEndTurn}, nil)
	default:
		req.Reply(nil, &jsonrpc.Error{Code: schema.CodeMethodNotFound, Message: req.Method})
	}
}

func (a *savedAgent) calls() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]string(nil), a.methods...)
}

// savedSeed is a saved session of two turns (entries e1..e5) with one decision.
func savedSeed() *acp.Seed {
	return &acp.Seed{
		AgentSessionID: "old-1", Title: "Saved work",
		Entries: []acp.Entry{
			{ID: "e1", Kind: acp.KindUser, Turn: 1, Text: "first  question"},
			{ID: "e2", Kind: acp.KindAgent, Turn: 1, Text: "first answer"},
			{ID: "e3", Kind: acp.KindTool, Turn: 1, ToolCallID: "call_1", Title: "Read notes.md", ToolKind: "read", Status: acp.StatusCompleted},
			{ID: "e4", Kind: acp.KindUser, Turn: 2, Text: "second question"},
			{ID: "e5", Kind: acp.KindAgent, Turn: 2, Text: "second answer"},
		},
		Turns:     []acp.TurnSummary{{Turn: 1, StopReason: schema.StopEndTurn}, {Turn: 2, StopReason: schema.StopEndTurn}},
		Decisions: []acp.DecisionSummary{{RequestID: "0", ToolCallID: "e3", Outcome: "selected", OptionID: "allow", OptionKind: schema.AllowOnce, DecidedBy: acp.DecidedByUser}},
	}
}

// reopenWith reopens savedSeed against agent; journal (optional) receives the wire.
func reopenWith(t *testing.T, agent *savedAgent, journal jsonrpc.Tap) (*acp.Session, *events, acp.Continued) {
	t.Helper()
	ev := newEvents()
	s := acp.NewSession(acp.Config{ID: "s1", AgentName: "Saved", Cwd: "/p", Emitter: ev, Logf: t.Logf, Seed: savedSeed(), Journal: journal,
		Launch: func(context.Context) (acp.Transport, error) {
			return acptest.ServeHandler(func(conn *jsonrpc.Conn) jsonrpc.Handler { agent.conn = conn; return agent }), nil
		}})
	t.Cleanup(func() { s.Close() })
	how, err := s.Reopen(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if st := s.State(); st != acp.StateIdle {
		t.Fatalf("state %s after Reopen", st)
	}
	return s, ev, how
}

// boundaries returns the boundary entries of entries.
func boundaries(entries []acp.Entry) []acp.Entry {
	var out []acp.Entry
	for _, e := range entries {
		if e.Kind == acp.KindBoundary {
			out = append(out, e)
		}
	}
	return out
}

// countText counts the entries of kind whose text is text.
func countText(entries []acp.Entry, k acp.EntryKind, text string) int {
	n := 0
	for _, e := range entries {
		if e.Kind == k && e.Text == text {
			n++
		}
	}
	return n
}

func promptAndWait(t *testing.T, s *acp.Session, ev *events, text string) int {
	t.Helper()
	turn, err := s.Prompt(text)
	if err != nil {
		t.Fatal(err)
	}
	ev.waitFor(t, "turn_end", func(e acp.Event) bool { return e.Kind == acp.EventTurnEnd && e.Turn == turn })
	ev.waitFor(t, "idle", func(e acp.Event) bool { return e.Kind == acp.EventState && e.State == acp.StateIdle })
	return turn
}

func TestReopenSeededSessionResumes(t *testing.T) {
	agent := &savedAgent{caps: `{"sessionCapabilities":{"resume":{}},"loadSession":true}`}
	s, ev, how := reopenWith(t, agent, nil)
	if how != acp.ContinuedResumed {
		t.Fatalf("Reopen = %q, want resumed", how)
	}
	if got := agent.calls(); strings.Join(got, ",") != "initialize,session/resume" {
		t.Fatalf("calls %v", got)
	}
	if agent.reopened != "old-1" || s.AgentSessionID() != "old-1" {
		t.Fatalf("resumed %q, session id %q; want the saved old-1", agent.reopened, s.AgentSessionID())
	}
	snap := s.Snapshot()
	if snap.Title != "Saved work" || len(snap.Turns) != 2 || len(snap.Decisions) != 1 {
		t.Fatalf("seeded snapshot: title %q, turns %+v, decisions %+v", snap.Title, snap.Turns, snap.Decisions)
	}
	b := boundaries(snap.Entries)
	if len(snap.Entries) != 6 || len(b) != 1 || b[0].ID != "e6" || b[0].Boundary.Kind != acp.BoundaryResumed {
		t.Fatalf("entries after resume: %+v", snap.Entries)
	}
	if turn := promptAndWait(t, s, ev, "third"); turn != 3 {
		t.Fatalf("the next prompt is turn %d, want 3", turn)
	}
	snap = s.Snapshot()
	seen := map[string]bool{}
	for _, e := range snap.Entries {
		if seen[e.ID] {
			t.Fatalf("entry id %s is used twice: %+v", e.ID, snap.Entries)
		}
		seen[e.ID] = true
	}
	if u := snap.Entries[6]; u.ID != "e7" || u.Kind != acp.KindUser || u.Turn != 3 || u.Text != "third" {
		t.Fatalf("new user entry %+v, want e7 in turn 3", u)
	}
	if len(agent.prompts) != 1 || len(agent.prompts[0]) != 1 {
		t.Fatalf("a resumed agent is given only the prompt: %+v", agent.prompts)
	}
}

func TestReopenLoadReplayIsNotDuplicated(t *testing.T) {
	var mu sync.Mutex
	replayedLines := 0
	journal := func(dir jsonrpc.Direction, method string, _ []byte) {
		if method == schema.MethodSessionUpdate {
			mu.Lock()
			replayedLines++
			mu.Unlock()
		}
	}
	agent := &savedAgent{caps: `{"loadSession":true}`, replay: [][2]string{
		{"first question", "first answer"}, {"second\nquestion", "second answer"}, {"third, asked elsewhere", "third answer"}}}
	s, ev, how := reopenWith(t, agent, journal)
	if how != acp.ContinuedReplayed {
		t.Fatalf("Reopen = %q, want replayed", how)
	}
	snap := s.Snapshot()
	for _, text := range []string{"first  question", "second question", "third, asked elsewhere"} {
		if n := countText(snap.Entries, acp.KindUser, text); n != 1 {
			t.Fatalf("prompt %q shown %d times: %+v", text, n, snap.Entries)
		}
	}
	if n := countText(snap.Entries, acp.KindAgent, "first answer"); n != 1 {
		t.Fatalf("a replayed reply is shown %d times", n)
	}
	b := boundaries(snap.Entries)
	if len(b) != 1 || b[0].Boundary.Kind != acp.BoundaryReplayed || b[0].Boundary.Replayed != 6 || b[0].Boundary.Added != 2 || b[0].Boundary.Summary != "" {
		t.Fatalf("boundaries %+v", b)
	}
	// The boundary, then the turn the agent had beyond ours, as turn 3.
	tail := snap.Entries[5:]
	if len(tail) != 3 || tail[0].Kind != acp.KindBoundary || tail[1].Kind != acp.KindUser || tail[1].Turn != 3 || tail[2].Text != "third answer" {
		t.Fatalf("after the saved entries: %+v", tail)
	}
	mu.Lock()
	if replayedLines != 6 {
		t.Errorf("the journal has %d replayed updates, want all 6", replayedLines)
	}
	mu.Unlock()
	if turn := promptAndWait(t, s, ev, "fourth"); turn != 4 {
		t.Fatalf("the next prompt is turn %d, want 4", turn)
	}
	// The replay came before the boundary's events and was never an event itself.
	for _, e := range ev.list() {
		if e.Kind == acp.EventEntry && e.Entry.Kind == acp.KindUser && strings.HasPrefix(e.Entry.Text, "first") {
			t.Fatalf("a replayed prompt was announced: %+v", e)
		}
	}
}

func TestReopenFallsBackWhenResumeIsRefused(t *testing.T) {
	both := `{"sessionCapabilities":{"resume":{}},"loadSession":true}`
	for _, c := range []struct {
		name   string
		refuse map[string]bool
		want   acp.Continued
		calls  string
	}{
		{"to load", map[string]bool{acp.MethodSessionResume: true}, acp.ContinuedReplayed, "initialize,session/resume,session/load"},
		{"to a summary", map[string]bool{acp.MethodSessionResume: true, acp.MethodSessionLoad: true}, acp.ContinuedSummarised,
			"initialize,session/resume,session/load,session/new"},
	} {
		t.Run(c.name, func(t *testing.T) {
			agent := &savedAgent{caps: both, refuse: c.refuse, replay: [][2]string{{"first question", "first answer"}, {"second question", "second answer"}}}
			s, _, how := reopenWith(t, agent, nil)
			if how != c.want {
				t.Fatalf("Reopen = %q, want %q", how, c.want)
			}
			if got := strings.Join(agent.calls(), ","); got != c.calls {
				t.Fatalf("calls %s, want %s", got, c.calls)
			}
			snap := s.Snapshot()
			if b := boundaries(snap.Entries); len(b) != 1 || b[0].Boundary.Kind != string(c.want) {
				t.Fatalf("boundaries %+v", b)
			}
			if len(snap.Entries) != 6 {
				t.Fatalf("entries %+v", snap.Entries)
			}
			wantID := "old-1"
			if c.want == acp.ContinuedSummarised {
				wantID = "fresh"
			}
			if s.AgentSessionID() != wantID {
				t.Fatalf("agent session %q, want %q", s.AgentSessionID(), wantID)
			}
		})
	}
}

func TestReopenSummarySeedsTheNextPrompt(t *testing.T) {
	agent := &savedAgent{caps: `{}`}
	s, ev, how := reopenWith(t, agent, nil)
	if how != acp.ContinuedSummarised {
		t.Fatalf("Reopen = %q, want summarised", how)
	}
	b := boundaries(s.Snapshot().Entries)
	if len(b) != 1 || b[0].Boundary.Kind != acp.BoundarySummarised || !strings.Contains(b[0].Boundary.Summary, "second answer") {
		t.Fatalf("boundaries %+v", b)
	}
	promptAndWait(t, s, ev, "third")
	promptAndWait(t, s, ev, "fourth")
	if len(agent.prompts) != 2 {
		t.Fatalf("prompts %+v", agent.prompts)
	}
	first := agent.prompts[0]
	if len(first) != 2 || first[0].Text != b[0].Boundary.Summary || first[1].Text != "third" {
		t.Fatalf("the first prompt after the summary is %+v, want the summary, then the text", first)
	}
	if len(agent.prompts[1]) != 1 || agent.prompts[1][0].Text != "fourth" {
		t.Fatalf("the summary was sent again: %+v", agent.prompts[1])
	}
	if n := countText(s.Snapshot().Entries, acp.KindUser, "third"); n != 1 {
		t.Fatal("the user entry does not hold only what was typed")
	}
	for _, e := range s.Snapshot().Entries {
		if e.Kind == acp.KindUser && strings.Contains(e.Text, "summary") {
			t.Fatalf("the summary shows in a user entry: %+v", e)
		}
	}
}

func TestResumeReplayIsSuppressed(t *testing.T) {
	agent := &savedAgent{caps: `{"sessionCapabilities":{"resume":{}}}`, replayOnResume: true,
		replay: [][2]string{{"first question", "first answer"}, {"an unknown prompt", "an unknown answer"}}}
	s, _, how := reopenWith(t, agent, nil)
	if how != acp.ContinuedResumed {
		t.Fatalf("Reopen = %q", how)
	}
	snap := s.Snapshot()
	if len(snap.Entries) != 6 || countText(snap.Entries, acp.KindUser, "an unknown prompt") != 0 {
		t.Fatalf("a replay during session/resume was shown: %+v", snap.Entries)
	}
}

// TestContinueWithNoTurnsGivesNoSummary: a session that was never prompted has nothing to
// summarise: no boundary, no extra block.
func TestContinueWithNoTurnsGivesNoSummary(t *testing.T) {
	agent := &savedAgent{caps: `{}`}
	ev := newEvents()
	s := acp.NewSession(acp.Config{ID: "s1", AgentName: "Saved", Cwd: "/p", Emitter: ev, Logf: t.Logf,
		Seed: &acp.Seed{AgentSessionID: "old-1"},
		Launch: func(context.Context) (acp.Transport, error) {
			return acptest.ServeHandler(func(conn *jsonrpc.Conn) jsonrpc.Handler { agent.conn = conn; return agent }), nil
		}})
	defer s.Close()
	how, err := s.Reopen(context.Background())
	if err != nil || how != acp.ContinuedNew {
		t.Fatalf("Reopen = %q, %v; want new", how, err)
	}
	if _, err := s.Reopen(context.Background()); !errors.Is(err, acp.ErrNotSeeded) {
		t.Fatalf("a second Reopen: %v, want ErrNotSeeded", err)
	}
	promptAndWait(t, s, ev, "hello")
	if len(s.Snapshot().Entries) != 2 || len(agent.prompts[0]) != 1 {
		t.Fatalf("entries %+v, prompt %+v", s.Snapshot().Entries, agent.prompts)
	}
}

// TestGoldenContextBoundary pins the events of a saved session continued with a summary (the
// boundary entry, then the next turn), shared with the frontend as context_boundary.json;
// -update rewrites it.
func TestGoldenContextBoundary(t *testing.T) {
	s, ev, how := reopenWith(t, &savedAgent{caps: `{}`}, nil)
	if how != acp.ContinuedSummarised {
		t.Fatalf("Reopen = %q", how)
	}
	promptAndWait(t, s, ev, "third")
	live := ev.upTo(t, s.Snapshot().Seq)
	entries := fold(live)
	if len(entries) == 0 || entries[0].Kind != acp.KindBoundary {
		t.Fatalf("the events do not start at the boundary: %+v", entries)
	}
	// The snapshot is the saved entries, then what the events added.
	if got, want := markdown(s.Snapshot().Entries), markdown(append(savedSeed().Entries, entries...)); got != want {
		t.Fatalf("snapshot:\n%s\nwant:\n%s", got, want)
	}
	checkGolden(t, "context_boundary", live, entries)
}
