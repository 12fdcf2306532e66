package cli

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"agentdesk/backend/acp/acptest"
	"agentdesk/backend/acp/demoagent"
)

func demoAgentCommand(stdio Stdio, opts Options) *cobra.Command {
	var pace time.Duration
	var script string
	cmd := &cobra.Command{
		Use:   "demo-agent [flags]",
		Short: "Serve the built-in Demo agent (or a scripted fake agent) over ACP on stdin/stdout",
		Long: `Serve the built-in Demo agent over ACP on stdin/stdout: the window and run start it this way.
With --script it plays an acptest script instead (a JSON array of steps, see
backend/acp/acptest), handy for reproducing a misbehaving agent.`,
		Example: `  agentdesk run --agent-cmd "agentdesk demo-agent --script bug.json" "hello"`,
		Args:    cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			if script == "" {
				script = opts.AgentScript // dev-tag builds only: "" in production
			}
			// The agent's side of ACP: bytes for agentdesk, not text for a person (rawStream).
			if script != "" {
				return result(playScript(script, stdio.In, rawStream(stdio.Out), rawStream(stdio.Err)))
			}
			if err := demoagent.Serve(stdio.In, rawStream(stdio.Out), pace); err != nil {
				fmt.Fprintf(stdio.Err, "demo-agent: %v\n", err)
				return result(ExitFailed)
			}
			return nil
		},
	}
	cmd.Flags().DurationVar(&pace, "pace", demoagent.DefaultPace, "pause between the steps of the scripted turn")
	cmd.Flags().StringVar(&script, "script", "", "play this acptest script (a JSON array of steps) instead of the demo")
	_ = cmd.MarkFlagFilename("script", "json")
	return cmd
}

// playScript serves a scripted fake agent (backend/acp/acptest) for tests and bug reports; it
// exits as the script says (its exit step), else 0, 1 when the script failed, or 2 when it
// cannot be read.
func playScript(path string, stdin io.Reader, stdout, stderr io.Writer) int {
	s, err := acptest.LoadScript(path)
	if err != nil {
		fmt.Fprintf(stderr, "demo-agent: %v\n", err)
		return ExitUsage
	}
	err = s.Run(stdin, stdout)
	var exit *acptest.ExitError
	if errors.As(err, &exit) {
		fmt.Fprintln(stderr, exit.Stderr)
		return exit.Code
	}
	if err != nil {
		fmt.Fprintf(stderr, "demo-agent: %v\n", err)
		return ExitFailed
	}
	return ExitOK
}
