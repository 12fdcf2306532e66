package acp_test

// Interop tests: the engine against a second, independent implementation of ACP, the example
// agent of github.com/coder/acp-go-sdk (the version pinned in go.mod), run as a real process.
// Its scripted turn takes about 5 s and is described in docs/acp.md ("Testing against agents"):
//
//	t≈0     agent_message_chunk (disclaimer)
//	t≈0.25  agent_message_chunk
//	t≈1.25  tool_call call_1 (read, pending)
//	t≈2.25  tool_call_update call_1 completed
//	t≈3.25  agent_message_chunk
//	t≈4.25  tool_call call_2 (edit, pending), then session/request_permission for call_2
//	        (allow = allow_once, reject = reject_once)
//	allow:  tool_call_update call_2 completed, a chunk 1 s later, end_turn
//
// A cancel during a pause gives "cancelled"; a cancel while the permission is pending may give
// "end_turn" (the cancelled outcome makes its script return normally). Our rule: any reply
// after Stop ends the turn as cancelled.

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/jsonrpc"
	"agentdesk/backend/acp/schema"
	"agentdesk/backend/supervise"
)

// buildSDKAgent builds the SDK's example agent, from the module cache at the version go.mod
// requires, into a temporary folder of t. The Go build cache makes every build after the first
// a link step.
func buildSDKAgent(t *testing.T) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("interop tests need the go tool on PATH to build github.com/coder/acp-go-sdk/example/agent: " + err.Error())
	}
	bin := filepath.Join(t.TempDir(), "sdk-agent")
	cmd := exec.Command(goTool, "build", "-o", bin, "github.com/coder/acp-go-sdk/example/agent")
	// The package folder is inside this module, so go.mod picks the SDK version.
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build the acp-go-sdk example agent: %v\n%s", err, out)
	}
	return bin
}

// interopJournal keeps every inbound line, so a test can see what the agent really answered.
type interopJournal struct {
	mu    sync.Mutex
	lines [][]byte
}

func (j *interopJournal) record(dir jsonrpc.Direction, method string, line []byte) {
	if dir != jsonrpc.In {
		return
	}
	j.mu.Lock()
	j.lines = append(j.lines, line)
	j.mu.Unlock()
}

// all is every inbound line so far, in order.
func (j *interopJournal) all() [][]byte {
	j.mu.Lock()
	defer j.mu.Unlock()
	return slices.Clone(j.lines)
}

// stopReasons lists the stopReason of every prompt response the agent sent, in order.
func (j *interopJournal) stopReasons() []string {
	var out []string
	for _, line := range j.all() {
		var msg struct {
			Method string          `json:"method"`
			Result json.RawMessage `json:"result"`
		}
		if json.Unmarshal(line, &msg) != nil || msg.Method != "" || len(msg.Result) == 0 {
			continue
		}
		var res struct {
			StopReason *string `json:"stopReason"`
		}
		if json.Unmarshal(msg.Result, &res) == nil && res.StopReason != nil {
			out = append(out, *res.StopReason)
		}
	}
	return out
}

// methods lists the methods of the inbound notifications and requests, in order.
func (j *interopJournal) methods() []string {
	var out []string
	for _, line := range j.all() {
		var msg struct {
			Method string `json:"method"`
		}
		if json.Unmarshal(line, &msg) == nil && msg.Method != "" {
			out = append(out, msg.Method)
		}
	}
	return out
}

// startSDKAgent starts a session (ID "s1") with the SDK example agent as a child process and
// waits until it is idle.
func startSDKAgent(t *testing.T) (*acp.Session, *events, *interopJournal) {
	t.Helper()
	bin := buildSDKAgent(t)
	cwd := t.TempDir()
	ev := newEvents()
	j := &interopJournal{}
	s := acp.NewSession(acp.Config{
		ID: "s1", AgentName: "acp-go-sdk example agent", Cwd: cwd, Emitter: ev, Journal: j.record,
		Logf: t.Logf, CloseGrace: 2 * time.Second,
		Launch: func(context.Context) (acp.Transport, error) {
			p, err := supervise.Start(supervise.Command{Path: bin, Env: os.Environ(), Dir: cwd})
			if err != nil {
				return nil, err
			}
			return p, nil
		},
	})
	t.Cleanup(func() { s.Close() })
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	if st := s.State(); st != acp.StateIdle {
		t.Fatalf("state %s after Start, want idle", st)
	}
	if s.AgentSessionID() == "" {
		t.Fatal("no agent session id after Start")
	}
	return s, ev, j
}

func isIdle(e acp.Event) bool { return e.Kind == acp.EventState && e.State == acp.StateIdle }

// isAgentText matches the first sign of agent text: a new agent entry or a chunk.
func isAgentText(e acp.Event) bool {
	return e.Kind == acp.EventChunk || (e.Kind == acp.EventEntry && e.Entry.Kind == acp.KindAgent)
}

// toolCards returns the tool cards of toolCallID in transcript order.
func toolCards(entries []acp.Entry, toolCallID string) []acp.Entry {
	var out []acp.Entry
	for _, e := range entries {
		if e.Kind == acp.KindTool && e.ToolCallID == toolCallID {
			out = append(out, e)
		}
	}
	return out
}

func agentText(entries []acp.Entry, turn int) string {
	var b strings.Builder
	for _, e := range entries {
		if e.Kind == acp.KindAgent && e.Turn == turn {
			b.WriteString(e.Text)
		}
	}
	return b.String()
}

func TestInteropSDKAgentTurnWithPermission(t *testing.T) {
	t.Parallel()
	s, ev, j := startSDKAgent(t)
	if _, err := s.Prompt("hello"); err != nil {
		t.Fatal(err)
	}
	p := answerNext(t, s, ev, schema.AllowOnce)
	if len(p.Options) != 2 || p.Options[0] != (acp.OptionSummary{ID: "allow", Name: "Allow this change", Kind: schema.AllowOnce, Verdict: acp.VerdictAllow}) ||
		p.Options[1].ID != "reject" || p.Options[1].Kind != schema.RejectOnce {
		t.Fatalf("permission options %+v, want allow (allow_once) then reject (reject_once)", p.Options)
	}
	end := ev.waitFor(t, "turn_end", kind(acp.EventTurnEnd))
	if end.StopReason != schema.StopEndTurn || end.Turn != 1 {
		t.Fatalf("turn_end %+v, want turn 1 end_turn", end)
	}
	ev.waitFor(t, "idle", isIdle)

	snap := s.Snapshot()
	read := toolCards(snap.Entries, "call_1")
	if len(read) != 1 || read[0].ToolKind != "read" || read[0].Status != acp.StatusCompleted ||
		len(read[0].Content) != 1 || !strings.Contains(read[0].Content[0].Text, "# My Project") ||
		len(read[0].RawInput) == 0 || len(read[0].RawOutput) == 0 {
		t.Fatalf("read tool cards %+v, want one completed read with its text content, rawInput and rawOutput", read)
	}
	edit := toolCards(snap.Entries, "call_2")
	if len(edit) != 1 {
		t.Fatalf("edit tool cards %+v, want exactly one", edit)
	}
	if edit[0].ID != p.ToolCallID {
		t.Fatalf("the permission names entry %s, the edit card is %s", p.ToolCallID, edit[0].ID)
	}
	if edit[0].ToolKind != "edit" || edit[0].Status != acp.StatusCompleted || edit[0].Title != "Modifying critical configuration file" {
		t.Fatalf("edit card %+v, want a completed edit titled as the agent titled it", edit[0])
	}
	// The permission request's locations differ from the tool_call's: present fields replace.
	if len(edit[0].Locations) != 1 || edit[0].Locations[0].Path != "/home/user/project/config.json" {
		t.Fatalf("edit card locations %+v, want the permission request's", edit[0].Locations)
	}
	text := agentText(snap.Entries, 1)
	for _, want := range []string{"demo only (no AI model)", "Now I understand the project structure", "Perfect!"} {
		if !strings.Contains(text, want) {
			t.Fatalf("agent text %q lacks %q", text, want)
		}
	}
	if len(snap.Turns) != 1 || snap.Turns[0].Turn != 1 || snap.Turns[0].StopReason != schema.StopEndTurn || snap.Turns[0].Receipt == nil {
		t.Fatalf("turns %+v", snap.Turns)
	}
	if len(snap.Permissions) != 0 {
		t.Fatalf("open permissions after the turn: %+v", snap.Permissions)
	}
	if got := j.stopReasons(); len(got) != 1 || got[0] != schema.StopEndTurn {
		t.Fatalf("the agent answered the prompt with %v, want [end_turn]", got)
	}
	evs := ev.upTo(t, snap.Seq)
	assertSeqContiguous(t, evs)
	assertFoldEqualsSnapshot(t, evs, snap)
	// Wire order: the permission event comes after the tool_call that announced call_2.
	announced := false
	for _, e := range evs {
		if e.Kind == acp.EventEntry && e.Entry.ID == p.ToolCallID {
			announced = true
		}
		if e.Kind == acp.EventPermission {
			if !announced {
				t.Fatal("the permission event came before any entry event of its tool card")
			}
			break
		}
	}
}

func TestInteropSDKAgentCancelled(t *testing.T) {
	t.Parallel()
	t.Run("while streaming", func(t *testing.T) {
		t.Parallel()
		s, ev, j := startSDKAgent(t)
		if _, err := s.Prompt("hello"); err != nil {
			t.Fatal(err)
		}
		ev.waitFor(t, "agent text", isAgentText)
		if err := s.Stop(); err != nil {
			t.Fatal(err)
		}
		end := ev.waitFor(t, "turn_end", kind(acp.EventTurnEnd))
		if end.StopReason != schema.StopCancelled || end.Turn != 1 {
			t.Fatalf("turn_end %+v, want turn 1 cancelled", end)
		}
		ev.waitFor(t, "idle", isIdle)
		// Cancelled during a pause, the SDK agent honours the cancel itself.
		if got := j.stopReasons(); len(got) != 1 || got[0] != schema.StopCancelled {
			t.Fatalf("the agent answered %v, want [cancelled]", got)
		}
		snap := s.Snapshot()
		if !strings.Contains(agentText(snap.Entries, 1), "demo only") {
			t.Fatalf("the first chunk is not in the transcript: %+v", snap.Entries)
		}
		for _, e := range snap.Entries {
			if e.Kind == acp.KindTool && e.Status != acp.StatusCancelled {
				t.Fatalf("tool card %+v is still open after a cancelled turn", e)
			}
		}
		evs := ev.upTo(t, snap.Seq)
		assertSeqContiguous(t, evs)
		assertFoldEqualsSnapshot(t, evs, snap)
	})

	t.Run("with permission pending", func(t *testing.T) {
		t.Parallel()
		s, ev, j := startSDKAgent(t)
		p := stopAtPermission(t, s, ev)
		ev.waitFor(t, "idle", isIdle)
		if err := s.AnswerPermission(p.RequestID, "allow"); err == nil {
			t.Fatal("a permission cancelled by Stop could still be answered")
		}
		// The SDK agent answers end_turn or cancelled here, depending on which of our two
		// messages (session/cancel, then the cancelled outcome) its script sees first.
		got := j.stopReasons()
		if len(got) != 1 || (got[0] != schema.StopEndTurn && got[0] != schema.StopCancelled) {
			t.Fatalf("the agent answered %v, want one reply (end_turn or cancelled)", got)
		}
		t.Logf("the SDK agent answered %q to a cancel with its permission pending; methods seen: %v", got[0], j.methods())
		snap := s.Snapshot()
		edit := toolCards(snap.Entries, "call_2")
		if len(edit) != 1 || edit[0].ID != p.ToolCallID || edit[0].Status != acp.StatusCancelled {
			t.Fatalf("edit cards %+v, want the permission's card %s cancelled", edit, p.ToolCallID)
		}
		if len(snap.Turns) != 1 || snap.Turns[0].StopReason != schema.StopCancelled {
			t.Fatalf("turns %+v", snap.Turns)
		}
		evs := ev.upTo(t, snap.Seq)
		assertSeqContiguous(t, evs)
		assertFoldEqualsSnapshot(t, evs, snap)
	})
}

// TestInteropSDKAgentTwoTurns stops the first turn after its first tool call and runs a whole
// second turn on the same agent session: the session stays warm, and the agent's reuse of the
// id call_1 in the second turn starts a new card.
func TestInteropSDKAgentTwoTurns(t *testing.T) {
	t.Parallel()
	s, ev, j := startSDKAgent(t)
	agentSession := s.AgentSessionID()
	if _, err := s.Prompt("first"); err != nil {
		t.Fatal(err)
	}
	ev.waitFor(t, "the call_1 card", func(e acp.Event) bool {
		return e.Kind == acp.EventEntry && e.Entry.ToolCallID == "call_1"
	})
	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	if end := ev.waitFor(t, "turn_end", kind(acp.EventTurnEnd)); end.StopReason != schema.StopCancelled || end.Turn != 1 {
		t.Fatalf("first turn ended %+v, want turn 1 cancelled", end)
	}
	ev.waitFor(t, "idle", isIdle)

	if _, err := s.Prompt("second"); err != nil {
		t.Fatalf("prompt after Stop: %v", err)
	}
	answerNext(t, s, ev, schema.AllowOnce)
	if end := ev.waitFor(t, "turn_end", kind(acp.EventTurnEnd)); end.StopReason != schema.StopEndTurn || end.Turn != 2 {
		t.Fatalf("second turn ended %+v, want turn 2 end_turn", end)
	}
	ev.waitFor(t, "idle", isIdle)

	if s.AgentSessionID() != agentSession {
		t.Fatalf("agent session id changed from %s to %s", agentSession, s.AgentSessionID())
	}
	if got := j.stopReasons(); len(got) != 2 || got[0] != schema.StopCancelled || got[1] != schema.StopEndTurn {
		t.Fatalf("the agent answered %v, want [cancelled end_turn]", got)
	}
	snap := s.Snapshot()
	read := toolCards(snap.Entries, "call_1")
	if len(read) != 2 || read[0].Turn != 1 || read[0].Status != acp.StatusCancelled ||
		read[1].Turn != 2 || read[1].Status != acp.StatusCompleted {
		t.Fatalf("call_1 cards %+v, want turn 1 cancelled and a new card in turn 2 completed", read)
	}
	edit := toolCards(snap.Entries, "call_2")
	if len(edit) != 1 || edit[0].Turn != 2 || edit[0].Status != acp.StatusCompleted {
		t.Fatalf("call_2 cards %+v, want one completed card in turn 2", edit)
	}
	want := []acp.TurnSummary{{Turn: 1, StopReason: schema.StopCancelled}, {Turn: 2, StopReason: schema.StopEndTurn}}
	if len(snap.Turns) != 2 || snap.Turns[0].Turn != want[0].Turn || snap.Turns[0].StopReason != want[0].StopReason ||
		snap.Turns[1].Turn != want[1].Turn || snap.Turns[1].StopReason != want[1].StopReason {
		t.Fatalf("turns %+v, want %+v", snap.Turns, want)
	}
	evs := ev.upTo(t, snap.Seq)
	assertSeqContiguous(t, evs)
	assertFoldEqualsSnapshot(t, evs, snap)
}
