package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"agentdesk/backend/agents"
	"agentdesk/backend/hub"
	"agentdesk/backend/rules"
)

// rules lists and edits the permission rules the window and `agentdesk run` answer requests
// with (backend/hub's rule book, kept in the history database).

// rulesEnv is what every rules subcommand works on: the history and a hub over it whose
// catalog names the agents (the core, openCore).
type rulesEnv struct {
	core *hub.Core
	h    *hub.Hub
	cat  *agents.Catalog
}

func openRules(ctx context.Context, db, command string, stderr io.Writer) (*rulesEnv, bool) {
	c, err := openCore(ctx, command, hub.Options{DB: db, Store: hub.StoreRequired}, nil)
	if err != nil {
		fmt.Fprintf(stderr, "agentdesk %s: %v\n", command, err)
		return nil, false
	}
	return &rulesEnv{core: c, h: c.Hub, cat: c.Catalog}, true
}

func rulesCommand(stdio Stdio) *cobra.Command {
	var db string
	cmd := &cobra.Command{
		Use:   "rules",
		Short: "List, add and remove your permission rules; export and import them as JSON",
		Long: `Permission rules answer an agent's permission requests before you are asked, in the window and in
agentdesk run: the most specific rule that matches wins, and a reject beats an allow that is as
specific. A rule answers with the agent's own allow-once or reject-once option; a request
without one is asked. Rules never allow a request that names a path outside the session's
folders. Every decision is in the audit log (agentdesk audit).`,
		Example: `  agentdesk rules list
  agentdesk rules add --agent claude --folder ~/src/app --kind read --allow
  agentdesk rules add --agent any --folder ~/src/app --kind execute --command "go test" --allow
  agentdesk rules rm 3f2a
  agentdesk rules export -o rules.json && agentdesk rules import rules.json`,
		Args: cobra.NoArgs,
	}
	cmd.PersistentFlags().StringVar(&db, "db", "", "database file")
	run := func(command string, do func(ctx context.Context, env *rulesEnv, out io.Writer) error) func(*cobra.Command, []string) error {
		return func(c *cobra.Command, _ []string) error {
			env, ok := openRules(c.Context(), db, "rules "+command, stdio.Err)
			if !ok {
				return result(ExitFailed)
			}
			defer env.core.Close(c.Context())
			if err := do(c.Context(), env, stdio.Out); err != nil {
				fmt.Fprintf(stdio.Err, "agentdesk rules %s: %v\n", command, err)
				return result(ExitFailed)
			}
			return nil
		}
	}
	cmd.AddCommand(rulesListCommand(run), rulesAddCommand(run), rulesRmCommand(run),
		rulesExportCommand(run), rulesImportCommand(run, stdio),
		rulesSwitchCommand(run, "pause", "Pause every rule: ask for everything until resume"),
		rulesSwitchCommand(run, "resume", "Let the rules answer again"),
		rulesSwitchCommand(run, "disable", "Turn one rule off (RULE is its id or the start of it)"),
		rulesSwitchCommand(run, "enable", "Turn one rule on again"))
	return cmd
}

// runner opens the history for a rules subcommand and runs do on it.
type runner = func(command string, do func(ctx context.Context, env *rulesEnv, out io.Writer) error) func(*cobra.Command, []string) error

func rulesListCommand(run runner) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the rules: decision, how often each fired and when last, what it matches",
		Args:  cobra.NoArgs,
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the rules as JSON")
	cmd.RunE = run("list", func(ctx context.Context, env *rulesEnv, out io.Writer) error {
		l, err := env.h.Rules(ctx)
		if err != nil {
			return err
		}
		if asJSON {
			return writeJSON(out, l)
		}
		printRules(out, l)
		return nil
	})
	return cmd
}

func printRules(out io.Writer, l hub.RuleList) {
	if l.Paused {
		fmt.Fprintln(out, "Rules are paused: every request is asked (agentdesk rules resume).")
	}
	if len(l.Rules) == 0 {
		fmt.Fprintln(out, "No rules yet. Make one from a permission card in the window, or with agentdesk rules add.")
		return
	}
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tDECISION\tFIRED\tLAST\tRULE")
	for _, r := range l.Rules {
		decision, last := r.Decision, "never"
		if r.Disabled {
			decision += " (off)"
		}
		if r.LastFiredAt != "" {
			last = r.LastFiredAt
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\n", shortID(r.ID), decision, r.Fired, last, cell(r.Label))
	}
	tw.Flush()
}

// shortID is the start of a rule id, enough to name it on the command line.
func shortID(id string) string {
	if len(id) > 8 {
		return id[:8]
	}
	return id
}

func rulesAddCommand(run runner) *cobra.Command {
	var r rules.Rule
	var allow, reject bool
	cmd := &cobra.Command{
		Use:   "add --agent ID --folder DIR --kind KIND [--tool NAME] [--path GLOB] [--command PREFIX] --allow|--reject",
		Short: "Add a rule (any as --agent, --folder or --kind matches everything)",
		Long: `Add a rule. --agent, --folder and --kind are required so that a rule is never broader than
meant: give "any" to match every agent, project or kind. --path is a glob relative to the session
folder (src/**, *.go); --command the leading words of an execute call's command line ("go test").`,
		Args: cobra.NoArgs,
	}
	fl := cmd.Flags()
	fl.StringVar(&r.AgentID, "agent", "", "the agent's id, or any")
	fl.StringVar(&r.Folder, "folder", "", "the project folder, or any")
	fl.StringVar(&r.Kind, "kind", "", "the tool kind (read, edit, delete, move, search, execute, think, fetch, other), or any")
	fl.StringVar(&r.Tool, "tool", "", "the tool call's title, matched whole")
	fl.StringVar(&r.Path, "path", "", "a path glob relative to the session folder")
	fl.StringVar(&r.Command, "command", "", "the leading words of the command line")
	fl.BoolVar(&allow, "allow", false, "allow what the rule matches")
	fl.BoolVar(&reject, "reject", false, "reject what the rule matches")
	for _, name := range []string{"agent", "folder", "kind"} {
		_ = cmd.MarkFlagRequired(name)
	}
	cmd.MarkFlagsOneRequired("allow", "reject")
	cmd.MarkFlagsMutuallyExclusive("allow", "reject")
	_ = cmd.RegisterFlagCompletionFunc("agent", completeAgentID)
	_ = cmd.MarkFlagDirname("folder")
	cmd.RunE = run("add", func(ctx context.Context, env *rulesEnv, out io.Writer) error {
		r.Decision = rules.Allow
		if reject {
			r.Decision = rules.Reject
		}
		if err := anyToEmpty(env, &r); err != nil {
			return err
		}
		info, err := env.h.SaveRule(ctx, r)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "added %s: %s %s\n", shortID(info.ID), info.Decision, safeLine(info.Label))
		return nil
	})
	return cmd
}

// anyToEmpty turns "any" into the empty field that matches anything, makes the folder
// absolute and checks the agent and the kind.
func anyToEmpty(env *rulesEnv, r *rules.Rule) error {
	for _, f := range []*string{&r.AgentID, &r.Folder, &r.Kind} {
		if strings.EqualFold(*f, "any") {
			*f = ""
		}
	}
	if r.Folder != "" {
		abs, err := filepath.Abs(expandHome(r.Folder))
		if err != nil {
			return fmt.Errorf("--folder %q: %w", r.Folder, err)
		}
		r.Folder = abs
	}
	if r.Kind != "" && !knownKind(r.Kind) {
		return fmt.Errorf("--kind %q: use read, edit, delete, move, search, execute, think, fetch, other or any", r.Kind)
	}
	if r.AgentID == "" {
		return nil
	}
	var ids []string
	for _, a := range env.cat.List() {
		if a.ID == r.AgentID {
			return nil
		}
		ids = append(ids, a.ID)
	}
	return fmt.Errorf("--agent %q is not an agent here: use one of %s, or any", r.AgentID, strings.Join(ids, ", "))
}

func knownKind(k string) bool {
	switch k {
	case "read", "edit", "delete", "move", "search", "execute", "think", "fetch", "switch_mode", "other":
		return true
	}
	return false
}

// expandHome turns a leading ~/ into the home folder (a quoted ~ reaches us unexpanded).
func expandHome(p string) string {
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, rest)
		}
	}
	return p
}
