package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/receipt"
	"agentdesk/backend/acp/schema"
	"agentdesk/backend/agents"
	"agentdesk/backend/compare"
	"agentdesk/backend/hub"
)

type compareFlags struct {
	cwd, check, policy, output, db string
	agents, agentCmds              []string
}

func compareCommand(stdio Stdio) *cobra.Command {
	var f compareFlags
	cmd := &cobra.Command{
		Use:   "compare --cwd DIR (--agent ID | --agent-cmd CMD)... [--check CMD] [flags] PROMPT",
		Short: "Give one task to several agents at once, each in its own worktree, and compare what they did",
		Long: `Start every agent given (--agent, then --agent-cmd, each as often as wanted: one agent twice
will do) in the git repository holding --cwd, each in a new worktree of its own, and give each
the prompt. Once each turn has ended, --check runs with sh in each worktree (e.g. "go test ./...").
It then prints one row per session: files changed, lines added and removed, the check's exit
code, time, time waiting on you, tokens and cost; --output json prints one JSON object. Your own
files are not touched: bring the best one in with agentdesk apply ID, drop the others with
agentdesk discard ID. --permissions answers the agents' permission requests no rule decides:
reject (the default) or allow, once each. Exit 0 when every turn ended well, 1 otherwise, 6 when
the comparison could not start.`,
		Example: `  agentdesk compare --cwd ~/src/app --agent claude --agent codex --check "go test ./..." "fix the flaky test"
  agentdesk compare --cwd . --agent gemini --agent gemini --permissions allow --output json "add a --verbose flag"`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if f.policy != "allow" && f.policy != "reject" {
				return fmt.Errorf("--permissions must be allow or reject (the agents work at once: nobody is asked), not %q", f.policy)
			}
			if f.output != "text" && f.output != "json" {
				return fmt.Errorf("--output must be text or json, not %q", f.output)
			}
			return result(runCompare(cmd.Context(), f, strings.Join(args, " "), stdio))
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.cwd, "cwd", ".", "a folder in the git repository to work on")
	fl.StringArrayVar(&f.agents, "agent", nil, "an agent to give the task to (repeat for each)")
	fl.StringArrayVar(&f.agentCmds, "agent-cmd", nil, "a command line to start as an agent (repeat for each; no shell runs it)")
	fl.StringVar(&f.check, "check", "", "a command run with sh in each worktree after its turn")
	fl.StringVar(&f.policy, "permissions", "reject", "answer the permission requests no rule decides: allow or reject (once)")
	fl.StringVar(&f.output, "output", "text", "text (a table) or json")
	fl.StringVar(&f.db, "db", "", "database file")
	_ = cmd.RegisterFlagCompletionFunc("agent", completeAgentID)
	_ = cmd.MarkFlagDirname("cwd")
	return cmd
}

// compareWait bounds the wait for the turns to end after Ctrl-C has stopped them.
const compareWait = 30 * time.Second

func runCompare(ctx context.Context, f compareFlags, prompt string, stdio Stdio) int {
	say := logLines(stdio.Err, "compare") // one whole line at a time: the sessions' events come at once
	ids := append([]string{}, f.agents...)
	var extra []agents.Agent
	for i, line := range f.agentCmds {
		a, err := agents.FromCommandLine(line)
		if err != nil {
			say("%v", err)
			return ExitUsage
		}
		a.ID = agents.CommandLineID(i) // each line an agent of its own
		extra, ids = append(extra, a), append(ids, a.ID)
	}
	cwd, err := filepath.Abs(f.cwd)
	if err != nil {
		say("%v", err)
		return ExitNoStart
	}
	c, err := openCore(ctx, "compare", hub.Options{DB: f.db, Store: hub.StoreRequired, Agents: extra}, nil)
	if err != nil {
		say("%v", err)
		return ExitFailed
	}
	defer c.Close(context.Background())
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	var names sync.Map // session id → its agent's name, once started
	name := func(id string) string {
		if n, ok := names.Load(id); ok {
			return n.(string)
		}
		return "session " + id[:min(8, len(id))]
	}
	emitter := acp.EmitterFunc(func(ev acp.Event) {
		if ev.ParentID != "" {
			return
		}
		switch {
		case ev.Kind == acp.EventPermission:
			go decideByPolicy(c.Hub, ev, f.policy)
		case ev.Kind == acp.EventTurnEnd:
			say("%s: the turn ended (%s)", name(ev.SessionID), ev.StopReason)
		case ev.Kind == acp.EventState && ev.State == acp.StateFailed:
			say("%s did not start: %s", name(ev.SessionID), safeLine(ev.Message))
		}
	})
	info, err := c.Hub.StartComparison(hub.CompareRequest{Cwd: cwd, Agents: ids, Prompt: prompt, Check: f.check}, emitter)
	if err != nil {
		say("%v", err)
		return ExitNoStart
	}
	for _, s := range info.Sessions {
		names.Store(s.SessionID, s.AgentName)
	}
	for _, s := range info.Sessions {
		say("%s in %s (branch %s)", s.AgentName, s.Cwd, s.Worktree.Branch)
	}
	if err := c.Hub.WaitComparison(ctx, info.ID); err != nil { // Ctrl-C: stop every turn, then wait a little
		say("stopping the turns")
		for _, s := range info.Sessions {
			if sess, err := c.Hub.Session(s.SessionID); err == nil {
				_ = sess.Stop()
			}
		}
		wait, cancel := context.WithTimeout(context.Background(), compareWait)
		_ = c.Hub.WaitComparison(wait, info.ID)
		cancel()
	}
	view, err := c.Hub.Comparison(context.Background(), info.ID)
	if err != nil {
		say("%v", err)
		return ExitFailed
	}
	out := newScreen(stdio.Out).masked(c.Catalog.Masker())
	defer out.Flush()
	if f.output == "json" {
		printCompareJSON(out, view)
	} else {
		printCompareTable(out, view)
	}
	for _, r := range view.Rows {
		if r.StopReason != "end_turn" {
			return ExitFailed
		}
	}
	return ExitOK
}

// decideByPolicy answers a permission request as policy says, once; without such an option the
// turn is stopped.
func decideByPolicy(h *hub.Hub, ev acp.Event, policy string) {
	s, err := h.Session(ev.SessionID)
	if err != nil {
		return
	}
	if choice := acp.PolicyOption(policy, ev.Options); choice != "" {
		_ = s.Decide(ev.RequestID, choice, acp.DecidedByCLI)
		return
	}
	_ = s.Stop()
}

// printCompareJSON prints the comparison as one JSON object: its id, prompt and check, and
// one entry per session (compare.Row).
func printCompareJSON(out io.Writer, v hub.ComparisonView) {
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(struct {
		ID       string        `json:"id"`
		Prompt   string        `json:"prompt"`
		Check    string        `json:"check,omitempty"`
		Sessions []compare.Row `json:"sessions"`
	}{v.ID, v.Prompt, v.Check, v.Rows})
}

// printCompareTable prints one line per session, then how to go on.
func printCompareTable(out io.Writer, v hub.ComparisonView) {
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "SESSION\tAGENT\tFILES\t+/-\tCHECK\tTIME\tWAITING\tTOKENS\tCOST\tBRANCH")
	for _, r := range v.Rows {
		check := "-"
		if r.Check != nil {
			check = "exit " + strconv.Itoa(r.Check.ExitCode)
		}
		tokens := "-"
		if r.Tokens > 0 {
			tokens = strconv.FormatInt(r.Tokens, 10)
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t+%d -%d\t%s\t%s\t%s\t%s\t%s\t%s\n", r.ID[:8], cell(r.Agent), r.Files, r.Added, r.Removed, check,
			duration(r.WallMs), duration(r.WaitMs), tokens, costsText(r.Cost), cell(r.Branch))
	}
	_ = tw.Flush()
	fmt.Fprintln(out, "\nagentdesk apply ID brings one into your files; agentdesk discard ID removes one; agentdesk changes ID shows its turns.")
}

// costsText is a cost per currency for a table cell ("-" for none reported).
func costsText(costs []schema.Cost) string {
	var parts []string
	for _, c := range costs {
		parts = append(parts, receipt.CostText(c))
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, ", ")
}
