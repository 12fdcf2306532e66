package cli

import (
	"bufio"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"agentdesk/backend/agents"
	"agentdesk/backend/hub"
	"agentdesk/backend/store"
)

// runFlags are run's flags.
type runFlags struct {
	agentID, agentCmd, cwd, policy, db, auth string
	output                                   string // --output: text | json
	cont                                     string // --continue: a saved session's id or a unique prefix of one
	cancelAfter, hardAfter                   time.Duration
	mcp                                      []string // --mcp: exactly these MCP servers (nil: the agent's configured ones)
	verbose                                  bool     // --verbose: the engine's log lines on stderr
	worktree                                 bool     // --worktree: the session in a git worktree of its own
	carry                                    bool     // --carry: with the person's uncommitted changes
}

func runCommand(stdio Stdio) *cobra.Command {
	var f runFlags
	cmd := &cobra.Command{
		Use:   "run [flags] PROMPT...",
		Short: "Run one turn and print the transcript as it streams; the stop reason comes last",
		Long: `Start an agent in a folder, send it one prompt (the arguments, joined by spaces) and print the
transcript as it streams; the stop reason comes last, and the session is saved in the history.

Your permission rules (agentdesk rules) answer the requests they match, as in the window;
--permissions decides the rest: asked on this terminal (ask), or answered without asking with
the agent's allow-once (allow) or reject-once (reject) option.
Ctrl-C presses Stop; a second Ctrl-C kills the agent. An agent that ignores Stop is killed, with
its whole process group, after --hard-stop-after. When an agent needs a login, the error lists
its methods: pick one with --auth. --continue adds the turn to a saved session instead, under
its id, with its agent in its folder (the agent resumes it, or is given a summary).
The agent gets the MCP servers configured for it in the app; --mcp NAME (repeatable) passes
exactly the servers named instead, whatever agents they are set for.

--output json writes one JSON object per line instead: every session event, as the window gets
it (the event contract in docs/architecture.md: sessionId, seq, kind and its fields), the turn's
turn_end last; questions asked on the terminal go to stderr. A script follows the turn with it.

Exit codes: 0 when the turn ends with end_turn or cancelled, 1 when it ends otherwise (with the
agent's message and the tail of its stderr), 2 for a wrong command line, 3 when the turn ended
well but the session could not be saved whole in the history, 5 when the agent refused, 6 when
the agent could not be started, 7 when it needs a login first.`,
		Example: `  agentdesk run --agent demo --permissions allow "hello"
  agentdesk run "fix the build" --cwd ~/src/app
  agentdesk run --agent-cmd 'gemini --acp' --auth gemini-api-key "explain main.go"
  agentdesk run --continue 3f2a "now run the tests"
  agentdesk run --agent claude --mcp github --mcp files "triage the open issues"
  agentdesk run -- "--verbose is not a flag here"`,
		Args: func(_ *cobra.Command, args []string) error {
			if strings.TrimSpace(strings.Join(args, " ")) == "" {
				return fmt.Errorf(`give a prompt, e.g. agentdesk run --agent demo "hello"`)
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := f.check(cmd, "runs"); err != nil {
				return err
			}
			prompt := strings.TrimSpace(strings.Join(args, " "))
			return result(runTurn(cmd.Context(), f, prompt, stdio))
		},
	}
	f.addFlags(cmd, flagWords{
		agent:       "agent id (see the app's agent list)",
		permissions: "answer the permission requests no rule decides: ask (on this terminal), allow (allow once) or reject (reject once)",
		hardStop:    "after Stop, kill an agent that has not ended the turn within this long",
		cont:        "add the turn to this saved session (an id, or a unique prefix of one: see agentdesk history)",
	})
	fl := cmd.Flags()
	fl.StringVar(&f.output, "output", "text", "text (a transcript) or json (one event per line, the turn end last)")
	fl.DurationVar(&f.cancelAfter, "cancel-after", 0, "press Stop after this long (0: never)")
	_ = cmd.RegisterFlagCompletionFunc("output", cobra.FixedCompletions([]string{"text", "json"}, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

// flagWords are the help texts of the flags run and chat share that each words for itself.
type flagWords struct{ agent, permissions, hardStop, cont string }

// addFlags registers the flags run and chat share (the session's agent, folder, policy, history,
// login, continuation, MCP servers and log) with their completions.
func (f *runFlags) addFlags(cmd *cobra.Command, words flagWords) {
	fl := cmd.Flags()
	fl.StringVar(&f.agentID, "agent", agents.DemoID, words.agent)
	fl.StringVar(&f.agentCmd, "agent-cmd", "", "start this command line as the agent instead (no shell runs it)")
	fl.StringVar(&f.cwd, "cwd", ".", "project folder of the session")
	fl.StringVar(&f.policy, "permissions", "ask", words.permissions)
	fl.DurationVar(&f.hardAfter, "hard-stop-after", 30*time.Second, words.hardStop)
	fl.StringVar(&f.db, "db", "", "database file")
	fl.StringVar(&f.auth, "auth", "", "log in with this auth method of the agent first (see the error that lists them)")
	fl.StringVar(&f.cont, "continue", "", words.cont)
	fl.StringArrayVar(&f.mcp, "mcp", nil, `pass exactly this MCP server (repeatable; --mcp "" passes none)`)
	fl.BoolVar(&f.verbose, "verbose", false, verboseUsage)
	fl.BoolVar(&f.worktree, "worktree", false, "work in a new git worktree of the folder's repository (branch agentdesk/s-…, kept in agentdesk's data folder): your own files stay untouched")
	fl.BoolVar(&f.carry, "carry", false, "with --worktree: bring your uncommitted changes and untracked files into the worktree (yours stay as they are)")
	_ = cmd.RegisterFlagCompletionFunc("agent", completeAgentID)
	_ = cmd.RegisterFlagCompletionFunc("mcp", completeMCP)
	_ = cmd.RegisterFlagCompletionFunc("continue", completeSessionID(&f.db))
	_ = cmd.RegisterFlagCompletionFunc("permissions", cobra.FixedCompletions([]string{"ask", "allow", "reject"}, cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.MarkFlagDirname("cwd")
}

// check refuses flags that do not go together, in words for the command line, and drops the
// empty --mcp names. with is what the command does with a continued session's agent ("runs",
// "talks with"). chat has no --output: it sets it to text first.
func (f *runFlags) check(cmd *cobra.Command, with string) error {
	if f.policy != "ask" && f.policy != "allow" && f.policy != "reject" {
		return fmt.Errorf("--permissions must be ask, allow or reject, not %q", f.policy)
	}
	if f.output != "text" && f.output != "json" {
		return fmt.Errorf("--output must be text or json, not %q", f.output)
	}
	if f.carry && !f.worktree {
		return fmt.Errorf("--carry brings your uncommitted changes into a new worktree: give --worktree too")
	}
	if f.hardAfter <= 0 {
		return fmt.Errorf("--hard-stop-after must be longer than 0, e.g. 30s")
	}
	if f.cont != "" && (cmd.Flags().Changed("agent") || cmd.Flags().Changed("agent-cmd") || cmd.Flags().Changed("cwd") || f.auth != "" || f.worktree) {
		return fmt.Errorf("--continue %s the saved session's own agent in its own folder: leave out --agent, --agent-cmd, --cwd, --auth and --worktree", with)
	}
	f.mcp = slices.DeleteFunc(f.mcp, func(n string) bool { return strings.TrimSpace(n) == "" })
	return nil
}

// completeAgentID completes --agent from the agents the catalog lists (built-in, installed from
// the registry, custom).
func completeAgentID(cmd *cobra.Command, _ []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
	return completeFromCatalog(cmd, func(cat *agents.Catalog) (out []cobra.Completion) {
		for _, a := range cat.List() {
			out = append(out, cobra.CompletionWithDesc(a.ID, a.Name))
		}
		return out
	})
}

// completeMCP completes --mcp from the configured MCP servers.
func completeMCP(cmd *cobra.Command, _ []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
	return completeFromCatalog(cmd, func(cat *agents.Catalog) (out []cobra.Completion) {
		for _, m := range cat.MCPServers() {
			out = append(out, cobra.CompletionWithDesc(m.Name, m.Transport))
		}
		return out
	})
}

// completeFromCatalog completes a flag with what list reads from the core's catalog; nothing
// when the core does not open. File names are never offered.
func completeFromCatalog(cmd *cobra.Command, list func(*agents.Catalog) []cobra.Completion) ([]cobra.Completion, cobra.ShellCompDirective) {
	cat := completionCatalog(cmd)
	if cat == nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	return list(cat), cobra.ShellCompDirectiveNoFileComp
}

// completionCatalog is the core's catalog for a completion (no history opened), or nil.
func completionCatalog(cmd *cobra.Command) *agents.Catalog {
	c, err := openCore(cmd.Context(), "completion", hub.Options{Store: hub.StoreNone}, nil)
	if err != nil {
		return nil
	}
	_ = c.Close(cmd.Context())
	return c.Catalog
}

// runTurn runs one turn of f's agent with prompt and returns run's exit code.
func runTurn(ctx context.Context, f runFlags, prompt string, stdio Stdio) int {
	env, code := openSession(ctx, "run", f, stdio, nil)
	if env == nil {
		return code
	}
	code = func() int {
		defer close(env.done)
		return driveTurn(env.sess, env.info.AgentName, prompt, f.policy, f.cancelAfter, env.events, bufio.NewReader(stdio.In), env.out, env.stderr)
	}()
	if code == ExitFailed || code == ExitNoStart {
		if env.loginHint(ctx) {
			code = ExitLogin
		}
	}
	if saved := env.finish(ctx); code == ExitOK && !saved {
		return ExitNotSaved
	}
	return code
}

// describeHistoryError is the command line's message for a failed write of the history.
func describeHistoryError(err error) string {
	what := "saving the session failed"
	switch advice := store.Advice(err); {
	case store.Damaged(err):
		what += ": the history file is damaged: move it away, or give another file with --db"
	case advice != "":
		what += ": " + advice
	default:
		what += fmt.Sprintf(" (%v)", err)
	}
	return what + "; the turn goes on, and agentdesk tries again every 15 s"
}
