package hub

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"go.uber.org/goleak"

	"agentdesk/backend/acp"
	"agentdesk/backend/agents"
	"agentdesk/backend/worktree"
	"agentdesk/backend/worktree/gittest"
)

// comparedAgent is an agent whose one turn writes its name into who.txt through a terminal.
func comparedAgent(t *testing.T, dir, id string) agents.Agent {
	t.Helper()
	script := filepath.Join(dir, id+".json")
	if err := os.WriteFile(script, []byte(`[
		{"expect":"initialize"}, {"reply":{"protocolVersion":1,"agentCapabilities":{}}},
		{"expect":"session/new"}, {"reply":{"sessionId":"agent-`+id+`"}},
		{"expect":"session/prompt"},
		{"call":"terminal/create","params":{"command":"sh","args":["-c","echo `+id+` > who.txt"]},"want":"term-1"},
		{"call":"terminal/wait_for_exit","params":{"terminalId":"term-1"}},
		{"reply":{"stopReason":"end_turn"}},
		{"expect":"never"}]`), 0o600); err != nil {
		t.Fatal(err)
	}
	self, _ := os.Executable()
	return agents.Agent{ID: id, Name: "Agent " + id, Command: self, Args: []string{"play-script", script},
		Env: append(os.Environ(), "GORACE=atexit_sleep_ms=0"), Available: true}
}

// TestAComparisonGivesTheTaskToEachInItsWorktree: a request that cannot make a comparison is
// refused in words and starts nothing; two agents each get the prompt in a worktree of their
// own, the check runs in each after its turn, the comparison reads back with a row per session
// in the order asked; CloseAll leaves no goroutine behind.
func TestAComparisonGivesTheTaskToEachInItsWorktree(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	ctx := context.Background()
	dir := t.TempDir()
	repo := filepath.Join(dir, "repo")
	gittest.Run(t, dir, "init", "-q", "-b", "main", repo)
	os.WriteFile(filepath.Join(repo, "README"), []byte("readme\n"), 0o644)
	gittest.Run(t, repo, "add", "-A")
	gittest.Run(t, repo, "commit", "-q", "-m", "one")
	st := openTestStore(t, filepath.Join(dir, "history.db"))
	closeStore := sync.OnceFunc(func() { _ = st.Close() })
	defer closeStore()
	h := New(st, agentList{comparedAgent(t, dir, "a"), comparedAgent(t, dir, "b")}, t.Logf)
	h.SetWorktrees(worktree.NewManager(filepath.Join(dir, "worktrees"), worktree.CLI{}))
	closeAll := sync.OnceFunc(func() { _ = h.CloseAll(ctx) })
	defer closeAll()
	none := acp.EmitterFunc(func(acp.Event) {})

	for _, tc := range []struct {
		req  CompareRequest
		want string
	}{
		{CompareRequest{Cwd: repo, Agents: []string{"a"}, Prompt: "go"}, "at least two agents"},
		{CompareRequest{Cwd: repo, Agents: []string{"a", "b"}, Prompt: "  "}, "needs a prompt"},
		{CompareRequest{Cwd: repo, Agents: []string{"a", "nope"}, Prompt: "go"}, "nope"},
		{CompareRequest{Cwd: repo, Agents: []string{"a", "b"}, Prompt: "go", Check: strings.Repeat("x", 5000)}, "over 4 KiB"},
		{CompareRequest{Cwd: dir, Agents: []string{"a", "b"}, Prompt: "go"}, "not in a git repository"},
	} {
		if _, err := h.StartComparison(tc.req, none); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("StartComparison(%+v) = %v; want it to say %q", tc.req.Agents, err, tc.want)
		}
	}
	if live := h.List(); len(live) != 0 {
		t.Fatalf("a refused comparison left sessions: %+v", live)
	}

	info, err := h.StartComparison(CompareRequest{Cwd: repo, Agents: []string{"b", "a"}, Prompt: "go", Check: "cat who.txt; test -f README"}, none)
	if err != nil {
		t.Fatal(err)
	}
	if err := h.WaitComparison(ctx, info.ID); err != nil {
		t.Fatal(err)
	}
	v, err := h.Comparison(ctx, info.ID)
	if err != nil || len(v.Rows) != 2 || v.Prompt != "go" {
		t.Fatalf("Comparison = %+v, %v", v, err)
	}
	for i, want := range []string{"b", "a"} {
		r := v.Rows[i]
		if r.AgentID != want || r.StopReason != "end_turn" || r.Files != 1 || r.Check == nil || r.Check.ExitCode != 0 ||
			r.Check.Output != want+"\n" || r.Checking || r.Turns != 1 {
			t.Errorf("row %d = %+v (check %+v); want agent %s's turn, its file and check", i, r, r.Check, want)
		}
		if w, err := h.ViewWorktree(ctx, r.ID); err != nil || w == nil || w.ComparisonID != info.ID {
			t.Errorf("ViewWorktree(%s) = %+v, %v; want it in comparison %s", r.ID, w, err, info.ID)
		}
	}
	if b, err := os.ReadFile(filepath.Join(repo, "who.txt")); err == nil {
		t.Fatalf("an agent wrote into the person's tree: %q", b)
	}

	// A member closed and continued (as in a later run of agentdesk) runs the check after its
	// next turn too.
	b := v.Rows[0].ID
	if err := h.Close(ctx, b); err != nil {
		t.Fatal(err)
	}
	ready := make(chan struct{}, 1)
	s, _, err := h.ContinueSaved(ctx, ContinueRequest{SessionID: b}, acp.EmitterFunc(func(ev acp.Event) {
		if ev.Kind == acp.EventState && ev.State == acp.StateIdle {
			select {
			case ready <- struct{}{}:
			default:
			}
		}
	}))
	if err != nil {
		t.Fatal(err)
	}
	<-ready
	if _, err := s.Prompt("again"); err != nil {
		t.Fatal(err)
	}
	if err := h.WaitComparison(ctx, info.ID); err != nil {
		t.Fatal(err)
	}
	if c, ok, err := st.LatestCheck(ctx, b); err != nil || !ok || c.Turn != 2 || c.ExitCode != 0 {
		t.Fatalf("the continued member's check = %+v, %v, %v; want turn 2's", c, ok, err)
	}
	closeAll()
	closeStore()
}
