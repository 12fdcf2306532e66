package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
)

// Exit codes of Run, the contract scripts rely on (README, "The command line").
const (
	// ExitOK: the command did what it was asked; for run, the turn ended with end_turn or
	// cancelled and the session is in the history.
	ExitOK = 0
	// ExitFailed: the command failed and said why on stderr; for run, the turn ended otherwise
	// (an error, max_tokens, max_turn_requests, interrupted: the agent's message and the tail of
	// its stderr are printed).
	ExitFailed = 1
	// ExitUsage: the command line was wrong (an unknown flag, a bad value, a missing argument);
	// the reason and the command's usage line are on stderr.
	ExitUsage = 2
	// ExitNotSaved: run's turn ended well, but the session is not (wholly) in the history.
	ExitNotSaved = 3
	// ExitConflict: revert did nothing because a file it would write changed after the turn
	// (the conflicts are printed), or the person declined at its prompt.
	ExitConflict = 4
	// ExitRefused: run's turn ended with the agent's refusal (stop reason refusal).
	ExitRefused = 5
	// ExitNoStart: run's agent could not be started or its session not opened (a missing
	// program, a folder that does not exist, an agent that failed its handshake), said on stderr.
	ExitNoStart = 6
	// ExitLogin: run's agent needs a login first; stderr lists its methods (pick one with --auth)
	// or the command to run in a terminal.
	ExitLogin = 7
)

// Stdio is where a command reads and writes: the process's own in main, buffers in tests.
type Stdio struct {
	In  io.Reader // run reads the answers to permission requests from it (--permissions ask)
	Out io.Writer // the transcript, lists, exports, help and completion scripts
	Err io.Writer // every error and notice
	// Run makes Out and Err screens: every command's text passes the terminal-safe filter.
}

// Options are what the binary's build hands the command line: the seams that differ between a
// production and a dev-tag build.
type Options struct {
	// AgentScript is the acptest script demo-agent plays in place of the demo when --script is
	// not given: the e2e tests' seam, read from the environment by the dev-tag build only ("" in
	// production, where the Demo agent always plays its demo).
	AgentScript string
}

// IsCommand reports whether args (the program's arguments, without its name) start with a
// command of the command line: a subcommand, help, completion, or cobra's hidden completion
// request that the shell scripts send. Anything else starts the window, Wails' own flags
// (-devserver, -assetdir) included.
func IsCommand(args []string) bool {
	if len(args) == 0 {
		return false
	}
	switch args[0] {
	case "-h", "--help", cobra.ShellCompRequestCmd, cobra.ShellCompNoDescRequestCmd:
		return true
	}
	for _, c := range newRoot(Stdio{}, Options{}).Commands() {
		if c.Name() == args[0] || c.HasAlias(args[0]) {
			return true
		}
	}
	return false
}

// Run runs the command line args (without the program's name) and returns the process's exit
// code (ExitOK ... ExitNotSaved). Flags go before or after the arguments; "--" ends them. It
// blocks until the command is done: for run, until the turn has ended and the agent is stopped.
// ctx bounds nothing a person is deciding (a permission asked on the terminal waits for them).
func Run(ctx context.Context, args []string, stdio Stdio, opts Options) int {
	if args == nil {
		args = []string{} // nil would make cobra read os.Args
	}
	if stdio.In == nil {
		stdio.In = strings.NewReader("") // nothing to read: a permission cannot be asked
	}
	// Every command writes on screens: nothing it prints reaches a terminal as a control (screen.go).
	stdio.Out, stdio.Err = newScreen(stdio.Out), newScreen(stdio.Err)
	root := newRoot(stdio, opts)
	root.SetArgs(args)
	cmd, err := root.ExecuteContextC(ctx)
	var code exitCode
	switch {
	case err == nil:
		return ExitOK
	case errors.As(err, &code):
		return int(code) // the command has said why
	}
	// Anything else is the command line's own fault: say so with the usage line.
	fmt.Fprintf(stdio.Err, "%s: %v\nUsage: %s\nRun '%s --help' for more.\n", cmd.CommandPath(), err, cmd.UseLine(), cmd.CommandPath())
	return ExitUsage
}

// exitCode ends a command that has told the user why on stderr.
type exitCode int

func (c exitCode) Error() string { return fmt.Sprintf("exit status %d", int(c)) }

// result is a command's code as RunE returns it.
func result(code int) error {
	if code == ExitOK {
		return nil
	}
	return exitCode(code)
}

// newRoot builds the command tree: the headless commands, help and completion.
func newRoot(stdio Stdio, opts Options) *cobra.Command {
	root := &cobra.Command{
		Use:   "agentdesk",
		Short: "a desktop client for ACP coding agents",
		Long: `agentdesk — a desktop client for ACP coding agents.

Without arguments it opens the window. The commands below run headless, with the same engine and
the same history. Flags go before or after the arguments; "--" ends them. The database
defaults to $XDG_DATA_HOME/agentdesk/agentdesk.db; AGENTDESK_DB or --db overrides it.`,
		SilenceErrors: true, // Run words errors itself
		SilenceUsage:  true,
	}
	root.SetIn(stdio.In)
	root.SetOut(stdio.Out)
	root.SetErr(stdio.Err)
	root.AddCommand(runCommand(stdio), chatCommand(stdio), historyCommand(stdio), showCommand(stdio), changesCommand(stdio), revertCommand(stdio), applyCommand(stdio), discardCommand(stdio), compareCommand(stdio),
		usageCommand(stdio), rulesCommand(stdio), auditCommand(stdio), exportCommand(stdio), deleteCommand(stdio), agentsCommand(stdio), diagnosticsCommand(stdio),
		demoAgentCommand(stdio, opts))
	root.AddCommand(registryCommand(stdio))
	// Added now rather than in Execute, so that IsCommand knows them.
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	return root
}
