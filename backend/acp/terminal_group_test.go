//go:build linux

package acp_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/jsonrpc"
	"agentdesk/backend/acp/schema"
	"agentdesk/backend/supervise/proctest"
)

// TestTerminalKillStreamsAndKillsTheGroup: output shows in the tool card while the command runs;
// kill ends the whole process group (a background grandchild too), reports the signal, and
// keeps the terminal: output and wait_for_exit still work.
func TestTerminalKillStreamsAndKillsTheGroup(t *testing.T) {
	kill := make(chan struct{})
	steps := make(chan string, 5)
	s, ev := startAndRun(t, func(c *jsonrpc.Conn) {
		id, err := createTerminal(c, schema.CreateTerminalParams{Command: "sh", Args: []string{"-c", "sleep 100 & echo $!; wait"}})
		if err != nil {
			steps <- err.Error()
			return
		}
		<-kill
		steps <- fmt.Sprint("kill: ", terminalCall(c, schema.MethodTerminalKill, id, nil))
		var exit schema.TerminalExitStatus
		err = terminalCall(c, schema.MethodTerminalWaitForExit, id, &exit)
		steps <- fmt.Sprintf("wait: %s %v", exitCode(&exit), err)
		var out schema.TerminalOutputResult
		err = terminalCall(c, schema.MethodTerminalOutput, id, &out)
		steps <- fmt.Sprintf("output: %s %v", exitCode(out.ExitStatus), err)
		_ = terminalCall(c, schema.MethodTerminalRelease, id, nil)
	})
	live := ev.waitFor(t, "live output", func(e acp.Event) bool {
		c, ok := terminalContent(e)
		return ok && strings.HasSuffix(c.Output, "\n")
	})
	c, _ := terminalContent(live)
	if c.ExitStatus != nil {
		t.Fatalf("the output was first shown after the exit: %+v", c)
	}
	grandchild, err := strconv.Atoi(strings.TrimSpace(c.Output))
	if err != nil {
		t.Fatalf("output %q is not the grandchild's pid", c.Output)
	}
	close(kill)
	for _, want := range []string{"kill: <nil>", "wait: SIGKILL <nil>", "output: SIGKILL <nil>"} {
		if got := <-steps; got != want {
			t.Fatalf("got %s, want %s", got, want)
		}
	}
	waitProcessGone(t, grandchild)
	ev.waitFor(t, "turn_end", kind(acp.EventTurnEnd))
	if card := toolCard(t, s); exitCode(card.ExitStatus) != "SIGKILL" || card.Output != c.Output {
		t.Fatalf("tool card after kill and release: %+v", card)
	}
}

// TestTerminalWaitCancelled: $/cancel_request for a pending wait_for_exit is answered -32800,
// and the command keeps running until it is released.
func TestTerminalWaitCancelled(t *testing.T) {
	steps := make(chan string, 3)
	s, ev, j := startTerminals(t, t.TempDir(), func(c *jsonrpc.Conn, req *jsonrpc.Request) {
		defer req.Reply(schema.PromptResult{StopReason: schema.StopEndTurn}, nil)
		id, err := createTerminal(c, schema.CreateTerminalParams{Command: "sleep", Args: []string{"100"}})
		if err != nil {
			steps <- err.Error()
			return
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel() // Call still sends the request, then $/cancel_request for it
		err = c.Call(ctx, schema.MethodTerminalWaitForExit, schema.TerminalParams{SessionID: "p1", TerminalID: id}, nil)
		steps <- fmt.Sprint("wait: ", err)
		var out schema.TerminalOutputResult
		err = terminalCall(c, schema.MethodTerminalOutput, id, &out)
		steps <- fmt.Sprintf("output: %s %v", exitCode(out.ExitStatus), err)
		steps <- fmt.Sprint("release: ", terminalCall(c, schema.MethodTerminalRelease, id, nil))
	})
	if _, err := s.Prompt("go"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"wait: context canceled", "output: running <nil>", "release: <nil>"} {
		if got := <-steps; got != want {
			t.Fatalf("got %s, want %s", got, want)
		}
	}
	j.waitFor(t, "the -32800 answer", func(line string) bool {
		return strings.HasPrefix(line, "out ") && strings.Contains(line, `"code":-32800`)
	})
	// Release reports the exit once the killed command is reaped: before or after the turn ends.
	ev.waitForAll(t, "turn_end and the card's exit", kind(acp.EventTurnEnd), func(e acp.Event) bool {
		c, ok := terminalContent(e)
		return ok && exitCode(c.ExitStatus) == "SIGKILL"
	})
}

// TestTerminalsKilledWhenTheSessionCloses: a command still running when the session closes is
// killed with its whole group, and its card keeps the output and says how it ended.
func TestTerminalsKilledWhenTheSessionCloses(t *testing.T) {
	s, ev, _ := startTerminals(t, t.TempDir(), func(c *jsonrpc.Conn, req *jsonrpc.Request) {
		_, _ = createTerminal(c, schema.CreateTerminalParams{Command: "sh", Args: []string{"-c", "sleep 100 & echo $!; sleep 100"}})
		<-c.Done() // the turn never ends: the session is closed under it
	})
	if _, err := s.Prompt("go"); err != nil {
		t.Fatal(err)
	}
	live := ev.waitFor(t, "live output", func(e acp.Event) bool {
		c, ok := terminalContent(e)
		return ok && strings.HasSuffix(c.Output, "\n")
	})
	c, _ := terminalContent(live)
	grandchild, err := strconv.Atoi(strings.TrimSpace(c.Output))
	if err != nil {
		t.Fatalf("output %q is not a pid", c.Output)
	}
	pgid := processGroup(t, grandchild)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if pids := runningInGroup(pgid); len(pids) > 0 {
		t.Fatalf("processes %v of terminal group %d still run after Close", pids, pgid)
	}
	if card := toolCard(t, s); card.Output != c.Output || exitCode(card.ExitStatus) != "SIGKILL" {
		t.Fatalf("card after Close: %+v", card)
	}
}

// processGroup is the process group of pid, from /proc.
func processGroup(t *testing.T, pid int) int {
	t.Helper()
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Fatal(err)
	}
	s := string(raw)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	pgid, err := strconv.Atoi(f[2])
	if err != nil {
		t.Fatal(err)
	}
	return pgid
}

// waitProcessGone waits until process pid has ended (a zombie counts as ended), without polling
// (proctest). It fails after a bound that only a process nobody killed reaches (the tests'
// commands sleep 100 s).
func waitProcessGone(t *testing.T, pid int) {
	t.Helper()
	if !proctest.Ends(pid, 20*time.Second) {
		t.Fatalf("process %d still runs", pid)
	}
}
