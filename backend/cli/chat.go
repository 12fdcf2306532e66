package cli

import "github.com/spf13/cobra"

func chatCommand(stdio Stdio) *cobra.Command {
	var f runFlags
	cmd := &cobra.Command{
		Use:   "chat [flags]",
		Short: "Talk with an agent on the terminal, turn after turn; the session is saved like any other",
		Long: `Start an agent in a folder and talk with it: each line you type is a turn, its transcript
streams as in run, and the session is saved in the history like any other.

On a terminal the prompt edits lines (arrows, Ctrl-R searches the history of this chat) and Tab
completes the slash commands: the agent's own (as it announces them) and chat's:
  /help   list the commands
  /quit   leave (so does /exit, or Ctrl-D at an empty prompt)
Permission requests that no rule of yours decides, and the agent's questions, are asked inline
(--permissions allow or reject answers requests without asking, as in run).
Ctrl-C stops the running turn (the agent stays up for the next one); a second Ctrl-C, while the
turn is stopping or at the prompt, leaves. Leaving closes the session, which saves it, and prints
its id: agentdesk chat --continue ID picks it up again (the agent resumes it, or is given a
summary), as does agentdesk run --continue ID.
When stdin is not a terminal each line read is a turn (and the answer to a question when one is
asked); colours are left out when stdout is not a terminal or NO_COLOR is set.

Exit codes: 0 when the last turn ended with end_turn or cancelled (or there was none), 1 when it
ended otherwise or the agent went away, 2 for a wrong command line, 3 when the session could not
be saved whole in the history, 5 when the last turn was refused, 6 when the agent could not be
started, 7 when it needs a login first.`,
		Example: `  agentdesk chat
  agentdesk chat --agent claude --cwd ~/src/app
  agentdesk chat --continue 3f2a
  printf 'hello\nnow the tests\n' | agentdesk chat --agent demo --permissions allow`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			f.output = "text"
			if err := f.check(cmd, "talks with"); err != nil {
				return err
			}
			return result(chat(cmd.Context(), f, stdio))
		},
	}
	f.addFlags(cmd, flagWords{
		agent:       "agent id (see agentdesk agents)",
		permissions: "answer the permission requests no rule decides: ask (inline), allow (allow once) or reject (reject once)",
		hardStop:    "after Ctrl-C, kill an agent that has not ended the turn within this long",
		cont:        "continue this saved session (an id, or a unique prefix of one: see agentdesk history)",
	})
	return cmd
}
