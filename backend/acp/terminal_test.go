//go:build linux

package acp_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/acptest"
	"agentdesk/backend/acp/jsonrpc"
	"agentdesk/backend/acp/schema"
)

// startTerminals starts a session whose agent runs onPrompt for each turn, with a journal.
func startTerminals(t *testing.T, cwd string, onPrompt func(*jsonrpc.Conn, *jsonrpc.Request), dirs ...string) (*acp.Session, *events, *journal) {
	t.Helper()
	ev, j := newEvents(), &journal{feed: make(chan string, 10000)}
	s := acp.NewSession(acp.Config{ID: "s1", AgentName: "terminals", Cwd: cwd, Dirs: dirs, Emitter: ev, Logf: t.Logf, Journal: j.record,
		Launch: func(context.Context) (acp.Transport, error) {
			return acptest.ServeHandler(func(c *jsonrpc.Conn) jsonrpc.Handler { return &promptAgent{onPrompt: onPrompt, conn: c} }), nil
		}})
	t.Cleanup(func() { s.Close() })
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	return s, ev, j
}

// createTerminal is the agent's terminal/create, and shows the terminal in tool call "run".
func createTerminal(c *jsonrpc.Conn, p schema.CreateTerminalParams) (string, error) {
	p.SessionID = "p1"
	var res schema.CreateTerminalResult
	if err := c.Call(context.Background(), schema.MethodTerminalCreate, p, &res); err != nil {
		return "", err
	}
	sendUpdate(c, fmt.Sprintf(`{"sessionUpdate":"tool_call","toolCallId":"run","title":"Run","kind":"execute","status":"in_progress",
		"content":[{"type":"terminal","terminalId":%q}]}`, res.TerminalID))
	return res.TerminalID, nil
}

func terminalCall(c *jsonrpc.Conn, method, id string, result any) error {
	return c.Call(context.Background(), method, schema.TerminalParams{SessionID: "p1", TerminalID: id}, result)
}

// terminalContent is the terminal item of a tool card upserted by ev.
func terminalContent(ev acp.Event) (acp.ToolContent, bool) {
	if ev.Kind != acp.EventEntry || ev.Entry.Kind != acp.KindTool {
		return acp.ToolContent{}, false
	}
	for _, c := range ev.Entry.Content {
		if c.Type == "terminal" {
			return c, true
		}
	}
	return acp.ToolContent{}, false
}

func toolCard(t *testing.T, s *acp.Session) acp.ToolContent {
	t.Helper()
	for _, e := range s.Snapshot().Entries {
		if e.Kind == acp.KindTool && len(e.Content) == 1 {
			return e.Content[0]
		}
	}
	t.Fatal("no tool card with one content item")
	return acp.ToolContent{}
}

func exitCode(st *schema.TerminalExitStatus) string {
	switch {
	case st == nil:
		return "running"
	case st.Signal != nil:
		return *st.Signal
	case st.ExitCode != nil:
		return strconv.Itoa(*st.ExitCode)
	}
	return "no status"
}

// TestTerminalLifecycle: create (in the session folder, with the agent's environment and its own
// variables), output with stderr interleaved, wait_for_exit, release; after release the id is
// unknown but the tool card keeps the output, also in the events the UI and the history fold.
func TestTerminalLifecycle(t *testing.T) {
	dir := t.TempDir()
	steps := make(chan string, 10)
	s, ev, j := startTerminals(t, dir, func(c *jsonrpc.Conn, req *jsonrpc.Request) {
		defer req.Reply(schema.PromptResult{StopReason: schema.StopEndTurn}, nil)
		// A command line with shell syntax, as agents send it, and the agent's environment.
		id, err := createTerminal(c, schema.CreateTerminalParams{Command: `echo "$GREETING in $(pwd -P)"; echo oops >&2; exit 3`,
			Env: []schema.EnvVariable{{Name: "GREETING", Value: "hé"}}})
		if err != nil {
			steps <- "create: " + err.Error()
			return
		}
		var exit schema.TerminalExitStatus
		err = terminalCall(c, schema.MethodTerminalWaitForExit, id, &exit)
		steps <- fmt.Sprintf("wait: %s %v", exitCode(&exit), err)
		var out schema.TerminalOutputResult
		err = terminalCall(c, schema.MethodTerminalOutput, id, &out)
		steps <- fmt.Sprintf("output: %q %v %s %v", out.Output, out.Truncated, exitCode(out.ExitStatus), err)
		steps <- fmt.Sprint("release: ", terminalCall(c, schema.MethodTerminalRelease, id, nil))
		err = terminalCall(c, schema.MethodTerminalOutput, id, &out)
		steps <- fmt.Sprint("output after release: ", acptest.RPCCode(err), err)
		sendUpdate(c, `{"sessionUpdate":"tool_call_update","toolCallId":"run","status":"completed"}`)
	})
	if _, err := s.Prompt("run it"); err != nil {
		t.Fatal(err)
	}
	real, _ := filepath.EvalSymlinks(dir)
	for _, want := range []string{
		"wait: 3 <nil>",
		fmt.Sprintf("output: %q false 3 <nil>", "hé in "+real+"\noops\n"),
		"release: <nil>",
		"output after release: -32602",
	} {
		if got := <-steps; !strings.HasPrefix(got, want) {
			t.Fatalf("got %s\nwant %s", got, want)
		}
	}
	ev.waitFor(t, "turn_end", kind(acp.EventTurnEnd))

	card := toolCard(t, s)
	if card.Output != "hé in "+real+"\noops\n" || exitCode(card.ExitStatus) != "3" || card.Truncated {
		t.Fatalf("tool card after release: %+v (exit %s)", card, exitCode(card.ExitStatus))
	}
	snap := s.Snapshot()
	evs := ev.upTo(t, snap.Seq)
	assertFoldEqualsSnapshot(t, evs, snap)
	if md := acp.EntryMarkdown(&s.Snapshot().Entries[1]); !strings.Contains(md, "oops") || !strings.Contains(md, "(exit code 3)") {
		t.Fatalf("markdown of the card:\n%s", md)
	}
	var initialize string
	for _, l := range j.lines {
		if strings.Contains(l, `"method":"initialize"`) {
			initialize = l
		}
	}
	if !strings.Contains(initialize, `"terminal":true`) {
		t.Fatalf("terminals not advertised: %s", initialize)
	}
}

// TestTerminalArgsAreWords: args reach the command as they were sent, whatever they contain.
func TestTerminalArgsAreWords(t *testing.T) {
	got := make(chan string, 1)
	startAndRun(t, func(c *jsonrpc.Conn) {
		id, err := createTerminal(c, schema.CreateTerminalParams{Command: "printf", Args: []string{"[%s]", "$HOME", "it's", "a b", ""}})
		if err != nil {
			got <- err.Error()
			return
		}
		var out schema.TerminalOutputResult
		_ = terminalCall(c, schema.MethodTerminalWaitForExit, id, nil)
		err = terminalCall(c, schema.MethodTerminalOutput, id, &out)
		got <- fmt.Sprint(out.Output, err)
	})
	if g := <-got; g != "[$HOME][it's][a b][]<nil>" {
		t.Fatalf("printf printed %q", g)
	}
}

// startAndRun runs agent during one turn of a session in a temporary folder.
func startAndRun(t *testing.T, agent func(c *jsonrpc.Conn)) (*acp.Session, *events) {
	t.Helper()
	s, ev, _ := startTerminals(t, t.TempDir(), func(c *jsonrpc.Conn, req *jsonrpc.Request) {
		agent(c)
		req.Reply(schema.PromptResult{StopReason: schema.StopEndTurn}, nil)
	})
	if _, err := s.Prompt("go"); err != nil {
		t.Fatal(err)
	}
	return s, ev
}

// TestTerminalOutputLimitCutsOnCharacterBoundary: over the limit, output is dropped from the front
// and what is kept starts on a character boundary, in terminal/output and in the tool card.
func TestTerminalOutputLimitCutsOnCharacterBoundary(t *testing.T) {
	const text = "aé€𝄞z" // characters of 1, 2, 3, 4 and 1 bytes, written one per write
	cases := map[int64]string{}
	for limit := int64(0); limit <= int64(len(text))+1; limit++ {
		// The longest tail that fits and starts on a character boundary.
		want := ""
		for i := range text {
			if int64(len(text)-i) <= limit {
				want = text[i:]
				break
			}
		}
		cases[limit] = want
	}
	type result struct {
		limit int64
		out   schema.TerminalOutputResult
		err   error
	}
	results := make(chan result, len(cases)+1)
	s, ev := startAndRun(t, func(c *jsonrpc.Conn) {
		run := func(limit int64, command string) {
			id, err := createTerminal(c, schema.CreateTerminalParams{Command: command, OutputByteLimit: &limit})
			var out schema.TerminalOutputResult
			if err == nil {
				_ = terminalCall(c, schema.MethodTerminalWaitForExit, id, nil)
				err = terminalCall(c, schema.MethodTerminalOutput, id, &out)
			}
			results <- result{limit, out, err}
		}
		for limit := range cases {
			run(limit, `for w in a é € 𝄞 z; do printf %s "$w"; done`)
		}
		// Many writes of two-byte characters at odd offsets: pipe reads split characters.
		run(999, `printf x; yes é | head -n 5000 | tr -d '\n'`)
	})
	for range len(cases) + 1 {
		r := <-results
		want, truncated := cases[r.limit], r.limit < int64(len(text))
		if r.limit == 999 {
			want, truncated = strings.Repeat("é", 499), true // 998 bytes: 999 would start inside an é
		}
		if r.err != nil || r.out.Output != want || r.out.Truncated != truncated || !utf8.ValidString(r.out.Output) {
			t.Errorf("limit %d: %q truncated=%v (%v), want %q truncated=%v", r.limit, r.out.Output, r.out.Truncated, r.err, want, truncated)
		}
	}
	ev.waitFor(t, "turn_end", kind(acp.EventTurnEnd))
	if card := toolCard(t, s); card.Output != strings.Repeat("é", 499) || !card.Truncated {
		t.Fatalf("the last card shows %d bytes, truncated=%v", len(card.Output), card.Truncated)
	}
}

// TestTerminalRefusals: a missing cwd (relative: to the session folder) and an empty command are
// -32602, and nothing starts.
func TestTerminalRefusals(t *testing.T) {
	got := make(chan string, 3)
	startAndRun(t, func(c *jsonrpc.Conn) {
		for _, p := range []schema.CreateTerminalParams{
			{Command: "ls", Cwd: "relative/dir"},
			{Command: "ls", Cwd: "/no/such/folder"},
			{Command: " "},
		} {
			_, err := createTerminal(c, p)
			got <- fmt.Sprint(acptest.RPCCode(err), " ", err)
		}
	})
	for _, want := range []string{"not an existing folder", "not an existing folder", "needs a command"} {
		if g := <-got; !strings.HasPrefix(g, "-32602 ") || !strings.Contains(g, want) {
			t.Errorf("got %s, want -32602 saying %q", g, want)
		}
	}
}

// TestDemoRunsChecksInATerminal: the Demo agent runs its checks in a terminal of ours when the
// session folder exists, so the feature can be seen offline; the card keeps the output.
func TestDemoRunsChecksInATerminal(t *testing.T) {
	s, ev := startDemo(t, 0)
	if _, err := s.Prompt("hello"); err != nil {
		t.Fatal(err)
	}
	answerNext(t, s, ev, schema.AllowOnce)
	ev.waitFor(t, "turn_end", kind(acp.EventTurnEnd))
	for _, e := range s.Snapshot().Entries {
		if e.Kind == acp.KindTool && e.ToolKind == "execute" {
			if len(e.Content) != 1 || e.Content[0].Type != "terminal" || !strings.HasSuffix(e.Content[0].Output, "\nPASS\n") ||
				exitCode(e.Content[0].ExitStatus) != "0" || e.Status != acp.StatusCompleted {
				t.Fatalf("the checks card: %+v", e)
			}
			return
		}
	}
	t.Fatal("no checks card")
}
