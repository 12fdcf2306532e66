package hub

import (
	"context"
	"testing"

	"agentdesk/backend/acp"
)

// TestSubagentSessionsAreSavedAsATree: the subagents an agent starts are saved as sessions of
// their own, with their parent's id (a grandchild under its child), their title, their entries
// and their work state as outcome; the parent keeps the card where each started.
func TestSubagentSessionsAreSavedAsATree(t *testing.T) {
	dir := t.TempDir()
	h, st := scriptHub(t, dir, "["+handshake+`
		{"expect":"session/prompt"},
		{"update":{"sessionUpdate":"subagent_update","sessionId":"k1","title":"Explore","state":{"state":"running"}}},
		{"send":{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"k1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"looking around"}}}}},
		{"send":{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"k1","update":{"sessionUpdate":"subagent_update","sessionId":"k2","title":"Grep"}}}},
		{"send":{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"k2","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"grepping"}}}}},
		{"update":{"sessionUpdate":"subagent_update","sessionId":"k1","state":{"state":"idle","stopReason":"end_turn"}}},
		{"reply":{"stopReason":"end_turn"}}]`)
	ctx := context.Background()
	_, info, ui := startAndPrompt(t, h, dir, "delegate")
	waitFor(t, ui, func(e acp.Event) bool { return e.Kind == acp.EventTurnEnd })
	if err := h.CloseAll(ctx); err != nil {
		t.Fatal(err)
	}
	list, err := st.ListSessions(ctx, "", 0)
	if err != nil {
		t.Fatal(err)
	}
	byTitle := map[string]struct{ id, parent, outcome string }{}
	for _, s := range list {
		byTitle[s.Title] = struct{ id, parent, outcome string }{s.ID, s.ParentID, s.Outcome}
	}
	child, grand := byTitle["Explore"], byTitle["Grep"]
	if child.parent != info.SessionID || grand.parent != child.id || child.id == "" || grand.id == "" {
		t.Fatalf("saved %+v: want Explore under %s and Grep under Explore", byTitle, info.SessionID)
	}
	if child.outcome != "end_turn" {
		t.Errorf("the child's outcome %q, want end_turn (its last work state)", child.outcome)
	}
	_, _, entries, err := st.Session(ctx, child.id)
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, e := range entries {
		texts = append(texts, e.Kind+":"+e.Text)
	}
	if len(texts) != 2 || texts[0] != "agent:looking around" || texts[1] != "subagent:Grep" {
		t.Errorf("the child's entries %q, want its message and its grandchild's card", texts)
	}
	_, _, parentEntries, err := st.Session(ctx, info.SessionID)
	if err != nil {
		t.Fatal(err)
	}
	cards := 0
	for _, e := range parentEntries {
		if e.Kind == string(acp.KindSubagent) {
			cards++
		}
		if e.Text == "looking around" || e.Text == "grepping" {
			t.Errorf("a subagent's message was saved in the parent: %+v", e)
		}
	}
	if cards != 1 {
		t.Errorf("%d subagent cards in the parent, want 1", cards)
	}
}

// TestDeletedSubagentIsNoLongerSaved: deleting a live session's subagent from the history (Detach,
// then the store's delete) stops saving it and its own children, with no failed write, while the
// parent is still saved.
func TestDeletedSubagentIsNoLongerSaved(t *testing.T) {
	dir := t.TempDir()
	h, st := scriptHub(t, dir, "["+handshake+`
		{"expect":"session/prompt"},
		{"update":{"sessionUpdate":"subagent_update","sessionId":"k1","title":"Explore"}},
		{"reply":{"stopReason":"end_turn"}},
		{"expect":"session/prompt"},
		{"send":{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"k1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"after the delete"}}}}},
		{"send":{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"k1","update":{"sessionUpdate":"subagent_update","sessionId":"k2","title":"Grep"}}}},
		{"update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"parent goes on"}}},
		{"reply":{"stopReason":"end_turn"}}]`)
	ctx := context.Background()
	sess, info, ui := startAndPrompt(t, h, dir, "one")
	card := waitFor(t, ui, func(e acp.Event) bool { return e.Kind == acp.EventEntry && e.Entry.Kind == acp.KindSubagent })
	waitFor(t, ui, func(e acp.Event) bool { return e.Kind == acp.EventTurnEnd })
	child := card.Entry.Subagent.SessionID
	h.Detach(child)
	if err := st.DeleteSession(ctx, child); err != nil {
		t.Fatal(err)
	}
	if _, err := sess.Prompt("two"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ui, func(e acp.Event) bool { return e.Kind == acp.EventTurnEnd })
	if err := h.CloseAll(ctx); err != nil {
		t.Fatal(err) // a write the store refused fails the test through openTestStore too
	}
	list, err := st.ListSessions(ctx, "", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || list[0].ID != info.SessionID {
		t.Fatalf("saved %+v, want only the parent", list)
	}
	_, _, entries, err := st.Session(ctx, info.SessionID)
	if err != nil {
		t.Fatal(err)
	}
	if last := entries[len(entries)-1]; last.Text != "parent goes on" {
		t.Errorf("the parent's last saved entry %q, want it still saved", last.Text)
	}
}

// startAndPrompt starts agent "a" of h in dir and, once it is idle, sends prompt; the events come
// on the channel returned.
func startAndPrompt(t *testing.T, h *Hub, dir, prompt string) (*acp.Session, SessionInfo, chan acp.Event) {
	t.Helper()
	ui := make(chan acp.Event, 1000)
	sess, info, err := h.Start(StartRequest{AgentID: "a", Cwd: dir}, acp.EmitterFunc(func(ev acp.Event) { ui <- ev }))
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, ui, func(e acp.Event) bool {
		return e.Kind == acp.EventState && e.State == acp.StateIdle && e.ParentID == ""
	})
	if _, err := sess.Prompt(prompt); err != nil {
		t.Fatal(err)
	}
	return sess, info, ui
}
