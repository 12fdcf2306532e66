//go:build linux

package acp_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/jsonrpc"
	"agentdesk/backend/acp/schema"
	"agentdesk/backend/acp/terminal"
)

// runToEnd creates a terminal for p, waits for its exit and reads its output.
func runToEnd(c *jsonrpc.Conn, p schema.CreateTerminalParams) (schema.TerminalOutputResult, error) {
	var out schema.TerminalOutputResult
	id, err := createTerminal(c, p)
	if err == nil {
		if err = terminalCall(c, schema.MethodTerminalWaitForExit, id, nil); err == nil {
			err = terminalCall(c, schema.MethodTerminalOutput, id, &out)
		}
	}
	return out, err
}

// TestTerminalIsATerminal: stdin, stdout and stderr are a terminal of 120x32 that says it is an
// xterm, with no pager that would wait for a key; the agent's own TERM and NO_COLOR win; line
// ends stay "\n" (no "\r\n").
func TestTerminalIsATerminal(t *testing.T) {
	got := make(chan string, 2)
	startAndRun(t, func(c *jsonrpc.Conn) {
		out, err := runToEnd(c, schema.CreateTerminalParams{
			Command: `for fd in 0 1 2; do test -t $fd && echo "fd $fd: tty"; done; echo "$TERM $PAGER $GIT_PAGER $(stty size)"; echo err >&2`})
		got <- fmt.Sprintf("%q %v", out.Output, err)
		out, err = runToEnd(c, schema.CreateTerminalParams{Command: `echo "$TERM ${NO_COLOR-colour}"`,
			Env: []schema.EnvVariable{{Name: "TERM", Value: "dumb"}, {Name: "NO_COLOR", Value: "1"}}})
		got <- fmt.Sprintf("%q %v", out.Output, err)
	})
	for _, want := range []string{
		fmt.Sprintf("%q <nil>", "fd 0: tty\nfd 1: tty\nfd 2: tty\nxterm-256color cat cat 32 120\nerr\n"),
		fmt.Sprintf("%q <nil>", "dumb 1\n"),
	} {
		if g := <-got; g != want {
			t.Errorf("got  %s\nwant %s", g, want)
		}
	}
}

// TestTerminalColoursReachTheCard: a command that colours its output only on a terminal does;
// the card keeps the colours (SGR) and drops the title, the hyperlink, cursor movement and the
// bell; the agent reads plain text. A line rewritten with carriage returns (a progress bar)
// shows as it ended, in both.
func TestTerminalColoursReachTheCard(t *testing.T) {
	got := make(chan string, 1)
	s, ev := startAndRun(t, func(c *jsonrpc.Conn) {
		out, err := runToEnd(c, schema.CreateTerminalParams{Command: `if [ -t 1 ]; then printf '\033[32mgreen\033[0m\n'; else echo plain; fi
printf '\033]0;a title\007\033[1;31mred\033[0m \033]8;;https://example.com\033\\a link\033]8;;\033\\\033[2K\033[1A\007!\n'
printf '10%%\r\033[33m50%%\033[0m\r100%%\n'`})
		got <- fmt.Sprintf("%q %v", out.Output, err)
	})
	if g, want := <-got, fmt.Sprintf("%q <nil>", "green\nred a link!\n100%\n"); g != want {
		t.Fatalf("terminal/output: got %s, want %s", g, want)
	}
	ev.waitFor(t, "turn_end", kind(acp.EventTurnEnd))
	want := "\x1b[32mgreen\x1b[0m\n\x1b[1;31mred\x1b[0m a link!\n\x1b[33m\x1b[0m100%\n"
	card := toolCard(t, s)
	if card.Output != want || card.Input {
		t.Fatalf("the card shows %q (input %v), want %q", card.Output, card.Input, want)
	}
	if text := s.Snapshot().Entries[1].SearchText(); !strings.Contains(text, "red a link!") || strings.Contains(text, "\x1b") {
		t.Fatalf("search indexes %q", text)
	}
}

// TestTerminalInputReachesTheCommand: what the person types reaches a command that reads a line
// (and is echoed, as on a terminal); input for a terminal that has ended, one that is unknown,
// or too much at once is refused.
func TestTerminalInputReachesTheCommand(t *testing.T) {
	ids, got := make(chan string, 1), make(chan string, 1)
	s, ev := startAndRun(t, func(c *jsonrpc.Conn) {
		id, err := createTerminal(c, schema.CreateTerminalParams{Command: `printf 'name? '; read -r name; echo "hello [$name]"`})
		if err != nil {
			got <- err.Error()
			return
		}
		ids <- id
		var out schema.TerminalOutputResult
		if err = terminalCall(c, schema.MethodTerminalWaitForExit, id, nil); err == nil {
			err = terminalCall(c, schema.MethodTerminalOutput, id, &out)
		}
		got <- fmt.Sprintf("%q %v", out.Output, err)
	})
	id := <-ids
	ev.waitFor(t, "the prompt on the card", func(e acp.Event) bool {
		c, ok := terminalContent(e)
		return ok && c.Input && c.Output == "name? "
	})
	if err := s.TerminalInput(id, strings.Repeat("x", terminal.MaxInput+1)); err == nil {
		t.Fatal("too much input was taken")
	}
	if err := s.TerminalInput("term-99", "x"); !errors.Is(err, acp.ErrNoSuchTerminal) {
		t.Fatalf("input for an unknown terminal: %v", err)
	}
	if err := s.TerminalInput(id, "wörld\r"); err != nil {
		t.Fatal(err)
	}
	if g, want := <-got, fmt.Sprintf("%q <nil>", "name? wörld\nhello [wörld]\n"); g != want {
		t.Fatalf("got %s, want %s", g, want)
	}
	if err := s.TerminalInput(id, "late\r"); !errors.Is(err, terminal.ErrEnded) {
		t.Fatalf("input after the exit: %v", err)
	}
	ev.waitFor(t, "turn_end", kind(acp.EventTurnEnd))
	if card := toolCard(t, s); card.Input || exitCode(card.ExitStatus) != "0" {
		t.Fatalf("the card after the exit: %+v", card)
	}
}

// TestTerminalInterrupt: Ctrl-C from the card interrupts the command as on a terminal: a
// command that traps SIGINT runs its trap, and one that does not dies of it.
func TestTerminalInterrupt(t *testing.T) {
	for _, tc := range []struct{ command, output, exit string }{
		{`trap 'echo caught; exit 7' INT; echo ready; while :; do sleep 1; done`, "ready\ncaught\n", "7"},
		{`echo ready; exec sleep 100`, "ready\n", "SIGINT"},
	} {
		ids, got := make(chan string, 1), make(chan string, 1)
		s, ev := startAndRun(t, func(c *jsonrpc.Conn) {
			id, err := createTerminal(c, schema.CreateTerminalParams{Command: tc.command})
			if err != nil {
				got <- err.Error()
				return
			}
			ids <- id
			var exit schema.TerminalExitStatus
			err = terminalCall(c, schema.MethodTerminalWaitForExit, id, &exit)
			var out schema.TerminalOutputResult
			_ = terminalCall(c, schema.MethodTerminalOutput, id, &out)
			got <- fmt.Sprintf("%q %s %v", out.Output, exitCode(&exit), err)
		})
		id := <-ids
		ev.waitFor(t, "ready", func(e acp.Event) bool {
			c, ok := terminalContent(e)
			return ok && c.Output == "ready\n"
		})
		if err := s.TerminalInterrupt(id); err != nil {
			t.Fatal(err)
		}
		// ^C is echoed by the line discipline before the command reacts (echoctl).
		if g, want := <-got, fmt.Sprintf("%q %s <nil>", strings.Replace(tc.output, "ready\n", "ready\n^C", 1), tc.exit); g != want {
			t.Errorf("%s: got %s, want %s", tc.command, g, want)
		}
	}
}
