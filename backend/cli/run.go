package cli

import (
	"bufio"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"agentdesk/backend/acp"
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
			if f.policy != "ask" && f.policy != "allow" && f.policy != "reject" {
				return fmt.Errorf("--permissions must be ask, allow or reject, not %q", f.policy)
			}
			if f.output != "text" && f.output != "json" {
				return fmt.Errorf("--output must be text or json, not %q", f.output)
			}
			if f.hardAfter <= 0 {
				return fmt.Errorf("--hard-stop-after must be longer than 0, e.g. 30s")
			}
			if f.cont != "" && (cmd.Flags().Changed("agent") || cmd.Flags().Changed("cwd") || f.auth != "") {
				return fmt.Errorf("--continue runs the saved session's own agent in its own folder: leave out --agent, --cwd and --auth")
			}
			f.mcp = slices.DeleteFunc(f.mcp, func(n string) bool { return strings.TrimSpace(n) == "" })
			prompt := strings.TrimSpace(strings.Join(args, " "))
			return result(runTurn(cmd.Context(), f, prompt, stdio))
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.agentID, "agent", agents.DemoID, "agent id (see the app's agent list)")
	fl.StringVar(&f.agentCmd, "agent-cmd", "", "start this command line as the agent instead (no shell runs it)")
	fl.StringVar(&f.cwd, "cwd", ".", "project folder of the session")
	fl.StringVar(&f.output, "output", "text", "text (a transcript) or json (one event per line, the turn end last)")
	fl.StringVar(&f.policy, "permissions", "ask", "answer the permission requests no rule decides: ask (on this terminal), allow (allow once) or reject (reject once)")
	fl.DurationVar(&f.cancelAfter, "cancel-after", 0, "press Stop after this long (0: never)")
	fl.DurationVar(&f.hardAfter, "hard-stop-after", 30*time.Second, "after Stop, kill an agent that has not ended the turn within this long")
	fl.StringVar(&f.db, "db", "", "database file")
	fl.StringVar(&f.auth, "auth", "", "log in with this auth method of the agent first (see the error that lists them)")
	fl.StringVar(&f.cont, "continue", "", "add the turn to this saved session (an id, or a unique prefix of one: see agentdesk history)")
	fl.StringArrayVar(&f.mcp, "mcp", nil, `pass exactly this MCP server (repeatable; --mcp "" passes none)`)
	_ = cmd.RegisterFlagCompletionFunc("agent", completeAgentID)
	_ = cmd.RegisterFlagCompletionFunc("mcp", completeMCP)
	_ = cmd.RegisterFlagCompletionFunc("output", cobra.FixedCompletions([]string{"text", "json"}, cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("permissions", cobra.FixedCompletions([]string{"ask", "allow", "reject"}, cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.MarkFlagDirname("cwd")
	return cmd
}

// completeAgentID completes --agent from the agents the catalog lists (built-in and custom).
func completeAgentID(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
	cat, _ := agents.OpenCatalog(hub.BuiltinAgents(nil), nil)
	var out []cobra.Completion
	for _, a := range cat.List() {
		out = append(out, cobra.CompletionWithDesc(a.ID, a.Name))
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}

// completeMCP completes --mcp from the configured MCP servers.
func completeMCP(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
	cat, _ := agents.OpenCatalog(hub.BuiltinAgents(nil), nil)
	var out []cobra.Completion
	for _, m := range cat.MCPServers() {
		out = append(out, cobra.CompletionWithDesc(m.Name, m.Transport))
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}

// runTurn runs one turn of f's agent with prompt and returns run's exit code.
func runTurn(ctx context.Context, f runFlags, prompt string, stdio Stdio) int {
	stdout, stderr := stdio.Out, stdio.Err
	health := hub.NewHistoryHealth(describeHistoryError)
	defer health.Close()
	saved := true // the session is in the history, whole: else the exit code says it is not
	st, err := hub.OpenStore(ctx, f.db, store.WithErrorHandler(health.Report))
	if err != nil {
		// The turn still runs; it is just not saved.
		fmt.Fprintf(stderr, "agentdesk run: the session will not be saved: %v\n", err)
		st, saved = nil, false
	} else {
		defer st.Close()
	}
	// A terminal's environment is already the login shell's: no capture here.
	list, agentID := hub.BuiltinAgents(nil), f.agentID
	if f.agentCmd != "" {
		custom, err := agents.FromCommandLine(f.agentCmd)
		if err != nil {
			fmt.Fprintf(stderr, "agentdesk run: %v\n", err)
			return ExitUsage
		}
		list, agentID = append(list, custom), custom.ID
	}
	// Custom agents too. Everything printed from here on has their secret values masked.
	cat, catErr := agents.OpenCatalog(list, nil)
	if catErr != nil {
		fmt.Fprintf(stderr, "agentdesk run: %v\n", catErr)
	}
	maskedOut, maskedErr := cat.Masker().Writer(stdout), cat.Masker().Writer(stderr)
	defer maskedErr.Flush()
	defer maskedOut.Flush()
	stdout, stderr = maskedOut, maskedErr
	if st != nil {
		if _, err := hub.MaskOldHistory(ctx, st, cat.Masker(), cat.LearnSecrets); err != nil {
			fmt.Fprintf(stderr, "agentdesk run: %v\n", err)
		}
	}
	h := hub.New(st, cat, func(string, ...any) {})
	h.SetElicit(elicitModes(f.policy))
	if st != nil {
		if l, err := hub.OpenLedger(st); err != nil {
			fmt.Fprintf(stderr, "agentdesk run: turns' changes will not be recorded: %v\n", err)
		} else {
			h.SetLedger(l)
		}
	}
	out := newPrinter(stdout)
	if f.output == "json" {
		out = newJSONPrinter(stdout, stderr)
	}
	events := make(chan acp.Event, 64)
	done := make(chan struct{})                     // closed once nobody reads events any more
	emitter := acp.EmitterFunc(func(ev acp.Event) { // the printer writes through maskedOut
		out.print(ev)
		if ev.Kind == acp.EventPermission || ev.Kind == acp.EventTurnEnd || ev.Kind == acp.EventState || openElicitation(ev) {
			select {
			case events <- ev:
			case <-done:
			}
		}
	})
	var (
		sess *acp.Session
		info hub.SessionInfo
	)
	if f.cont != "" {
		if st == nil {
			fmt.Fprintln(stderr, "agentdesk run: cannot continue a session: the history could not be opened")
			return ExitFailed
		}
		id, err := resolveSessionID(ctx, st, f.cont)
		if err != nil {
			fmt.Fprintf(stderr, "agentdesk run: %v\n", err)
			return ExitUsage
		}
		sess, info, err = h.ContinueSaved(ctx, hub.ContinueRequest{SessionID: id, HardStopAfter: f.hardAfter, RawEvents: true, MCP: f.mcp}, emitter)
		if err != nil {
			fmt.Fprintf(stderr, "agentdesk run: %s\n", describe(err, agents.Agent{}))
			return ExitFailed
		}
	} else {
		var err error
		sess, info, err = h.Start(hub.StartRequest{AgentID: agentID, Cwd: f.cwd, AuthMethod: f.auth, HardStopAfter: f.hardAfter,
			RawEvents: true, MCP: f.mcp}, emitter)
		if err != nil {
			agent, _ := cat.Find(agentID)
			fmt.Fprintf(stderr, "agentdesk run: %s\n", describe(err, agent))
			return ExitNoStart
		}
	}
	agent, _ := cat.Find(info.AgentID)
	if st != nil {
		health.Set(st.Writer().Flush, h.Resave, func(s hub.HistoryStatus) {
			if s.Saving {
				fmt.Fprintln(stderr, "agentdesk run: saving the session works again")
			} else {
				fmt.Fprintf(stderr, "agentdesk run: %s\n", s.Problem)
			}
		})
	}
	code := func() int {
		defer close(done)
		return driveTurn(sess, info.AgentName, prompt, f.policy, f.cancelAfter, events, bufio.NewReader(stdio.In), out, stderr)
	}()
	if code == ExitFailed || code == ExitNoStart {
		if sayWhatToDo(ctx, h, sess, agent, stderr) {
			code = ExitLogin
		}
	}
	closeCtx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if !health.Status().Saving {
		// A last try while the session is still in the hub: it saves the whole of it.
		if err := health.Retry(closeCtx); err != nil {
			fmt.Fprintf(stderr, "agentdesk run: the session was not saved in full: %s\n", describeHistoryError(err))
			saved = false
		}
	}
	if err := h.CloseAll(closeCtx); err != nil && health.Status().Saving {
		fmt.Fprintf(stderr, "agentdesk run: saving the session: %v\n", err)
		saved = false
	}
	if code == ExitOK && !saved {
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
