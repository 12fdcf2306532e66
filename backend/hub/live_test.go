package hub

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"agentdesk/backend/acp"
	"agentdesk/backend/agents"
)

// scriptAgent writes script (a JSON array of acptest steps) to dir and returns an agent that
// plays it as a real process (this test binary, see TestMain).
func scriptAgent(t *testing.T, dir, id, script string) agents.Agent {
	t.Helper()
	path := filepath.Join(dir, id+".json")
	if err := os.WriteFile(path, []byte(script), 0o600); err != nil {
		t.Fatal(err)
	}
	self, _ := os.Executable()
	return agents.Agent{ID: id, Name: "Agent " + id, Command: self, Args: []string{"play-script", path}, Available: true}
}

// idleSession starts a session of agent "a" in dir and waits until it is idle; states follows its
// state from then on.
func idleSession(t *testing.T, h *Hub, dir string) (*acp.Session, chan acp.State) {
	t.Helper()
	out, states := stateEvents()
	s, _, err := h.Start(StartRequest{AgentID: "a", Cwd: dir}, out)
	if err != nil {
		t.Fatal(err)
	}
	waitState(t, states, acp.StateIdle)
	return s, states
}

// stateEvents returns an emitter that passes state events on to the returned channel.
func stateEvents() (acp.Emitter, chan acp.State) {
	ch := make(chan acp.State, 64)
	return acp.EmitterFunc(func(ev acp.Event) {
		if ev.Kind == acp.EventState {
			ch <- ev.State
		}
	}), ch
}

// waitState reads states from ch until want comes.
func waitState(t *testing.T, ch chan acp.State, want acp.State) {
	t.Helper()
	for st := range ch {
		if st == want {
			return
		}
	}
}

const chatty = "[" + handshake + `
	{"expect":"session/prompt"}, {"reply":{"stopReason":"end_turn"}},
	{"expect":"session/prompt"}, {"reply":{"stopReason":"end_turn"}}]`

// TestCloseOneSessionLeavesTheOthers: of two live sessions, closing one stops its agent and
// takes it out of the list; the other goes on taking prompts; both stay in the history.
func TestCloseOneSessionLeavesTheOthers(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	h, st := scriptHub(t, dir, chatty, "a", "b")
	defer h.CloseAll(ctx)
	outA, statesA := stateEvents()
	a, _, err := h.Start(StartRequest{AgentID: "a", Cwd: dir}, outA)
	if err != nil {
		t.Fatal(err)
	}
	outB, statesB := stateEvents()
	b, _, err := h.Start(StartRequest{AgentID: "b", Cwd: dir}, outB)
	if err != nil {
		t.Fatal(err)
	}
	waitState(t, statesA, acp.StateIdle)
	waitState(t, statesB, acp.StateIdle)
	if l := h.List(); len(l) != 2 || l[0].SessionID != a.ID() || l[1].SessionID != b.ID() || l[0].AgentID != "a" ||
		l[1].AgentName != "Agent b" || l[0].State != acp.StateIdle || l[0].Cwd != dir {
		t.Fatalf("List = %+v, want a then b, idle", l)
	}
	if busy := h.Busy(); len(busy) != 0 {
		t.Fatalf("Busy = %+v with both idle", busy)
	}
	if err := h.CancelStart(ctx, a.ID()); !errors.Is(err, ErrStarted) {
		t.Fatalf("CancelStart of a started session: %v, want ErrStarted", err)
	}
	if err := h.Close(ctx, a.ID()); err != nil {
		t.Fatal(err)
	}
	if a.State() != acp.StateExited {
		t.Fatalf("closed session is %s, want exited", a.State())
	}
	if _, err := h.Session(a.ID()); !errors.Is(err, ErrNoLiveSession) {
		t.Fatalf("Session of a closed one: %v, want ErrNoLiveSession", err)
	}
	if err := h.Close(ctx, a.ID()); !errors.Is(err, ErrNoLiveSession) {
		t.Fatalf("second Close: %v, want ErrNoLiveSession", err)
	}
	if l := h.List(); len(l) != 1 || l[0].SessionID != b.ID() {
		t.Fatalf("List after closing a = %+v, want b alone", l)
	}
	if _, err := b.Prompt("still there?"); err != nil {
		t.Fatal(err)
	}
	waitState(t, statesB, acp.StateRunning)
	waitState(t, statesB, acp.StateIdle)
	if err := st.Writer().Flush(ctx); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{a.ID(), b.ID()} {
		if _, _, _, err := st.Session(ctx, id); err != nil {
			t.Errorf("session %s is not in the history: %v", id, err)
		}
	}
}

// TestShowPutsTheOtherSessionsOffScreen: until a window says which session it shows, every
// session is on screen; then that one is and the others are not, nor is a session started
// later; showing none puts them all off.
func TestShowPutsTheOtherSessionsOffScreen(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	h, _ := scriptHub(t, dir, chatty, "a", "b", "c")
	defer h.CloseAll(ctx)
	start := func(agent string) *acp.Session {
		s, _, err := h.Start(StartRequest{AgentID: agent, Cwd: dir}, acp.EmitterFunc(func(acp.Event) {}))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	a, b := start("a"), start("b")
	onScreen := func() [3]bool { return [3]bool{a.OnScreen(), b.OnScreen()} }
	if got := onScreen(); got != [3]bool{true, true} {
		t.Fatalf("before any Show: on screen %v, want both", got)
	}
	h.Show(b.ID())
	c := start("c")
	onScreen = func() [3]bool { return [3]bool{a.OnScreen(), b.OnScreen(), c.OnScreen()} }
	if got := onScreen(); got != [3]bool{false, true, false} {
		t.Fatalf("after Show(b) and c's start: on screen %v, want b alone", got)
	}
	h.Show(c.ID())
	if got := onScreen(); got != [3]bool{false, false, true} {
		t.Fatalf("after Show(c): on screen %v, want c alone", got)
	}
	h.Show("")
	if got := onScreen(); got != [3]bool{} {
		t.Fatalf("after Show(\"\"): on screen %v, want none", got)
	}
}

// TestCloseAllWaitsForStartsUnderWay: CloseAll right after Start (the agent launching, or in its
// handshake) returns only once that start is over: nothing of the session runs after it.
func TestCloseAllWaitsForStartsUnderWay(t *testing.T) {
	dir := t.TempDir()
	h, _ := scriptHub(t, dir, chatty, "a")
	s, _, err := h.Start(StartRequest{AgentID: "a", Cwd: dir}, acp.EmitterFunc(func(acp.Event) {}))
	if err != nil {
		t.Fatal(err)
	}
	h.mu.Lock()
	o := h.starts[s.ID()]
	h.mu.Unlock()
	if err := h.CloseAll(context.Background()); err != nil {
		t.Fatal(err)
	}
	select {
	case <-o.over:
	default:
		t.Fatal("the start was still under way after CloseAll returned")
	}
}
