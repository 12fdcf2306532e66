package cli

import (
	"context"
	"fmt"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"agentdesk/backend/store"
)

// audit prints the audit log: every permission decision, who made it (you, a rule, Stop, the
// CLI's --permissions) and on which tool call.

func auditCommand(stdio Stdio) *cobra.Command {
	var db, session, since, agent, by string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "audit [flags]",
		Short: "Print every permission decision: who decided (you, a rule, Stop, --permissions) and what",
		Long: `Print the audit log of permission decisions across sessions, newest first: when, the session, the
tool call, the verdict (allowed, rejected, cancelled) and who decided — person, rule (with the
rule's words), stop or cli (agentdesk run --permissions). --since takes a date (2006-01-02), a
number of days (7d) or all.`,
		Example: `  agentdesk audit --since 7d
  agentdesk audit --session 3f2a --json
  agentdesk audit --decided-by rule`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			from, err := store.ParseUsageSince(since, time.Now())
			if err != nil {
				return fmt.Errorf("--since: %w", err)
			}
			switch by {
			case "", "person", "rule", "stop", "cli":
			default:
				return fmt.Errorf("--decided-by %q: use person, rule, stop or cli", by)
			}
			q := store.AuditQuery{AgentID: agent, DecidedBy: by, Since: from}
			return result(printAudit(cmd.Context(), db, session, q, asJSON, stdio))
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&db, "db", "", "database file")
	fl.StringVar(&session, "session", "", "only this session (its id or the start of it)")
	fl.StringVar(&since, "since", "all", "decisions since a date (2006-01-02), days (7d) or all")
	fl.StringVar(&agent, "agent", "", "only this agent's sessions")
	fl.StringVar(&by, "decided-by", "", "only decisions by person, rule, stop or cli")
	fl.BoolVar(&asJSON, "json", false, "print one JSON object per decision, one per line")
	_ = cmd.RegisterFlagCompletionFunc("agent", completeAgentID)
	return cmd
}

func printAudit(ctx context.Context, db, session string, q store.AuditQuery, asJSON bool, stdio Stdio) int {
	c := openToPrint(ctx, db, "audit", stdio.Err)
	if c == nil {
		return ExitFailed
	}
	defer c.Close(ctx)
	st, mask := c.Store, c.Catalog.Masker()
	if session != "" {
		id, err := resolveSessionID(ctx, st, session)
		if err != nil {
			fmt.Fprintf(stdio.Err, "agentdesk audit: %v\n", err)
			return ExitFailed
		}
		q.SessionID = id
	}
	items, err := c.Hub.Audit(ctx, q)
	if err != nil {
		fmt.Fprintf(stdio.Err, "agentdesk audit: %v\n", err)
		return ExitFailed
	}
	out := newScreen(stdio.Out).masked(mask)
	defer out.Flush()
	if asJSON {
		for _, it := range items {
			if err := writeJSON(out, it); err != nil {
				return ExitFailed
			}
		}
		return ExitOK
	}
	if len(items) == 0 {
		fmt.Fprintln(out, "No permission decisions match.")
		return ExitOK
	}
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "DECIDED\tSESSION\tAGENT\tVERDICT\tBY\tTOOL CALL")
	for _, it := range items {
		who := it.DecidedBy
		if it.DecidedBy == "rule" {
			who = "rule: " + it.RuleLabel
		}
		// A title is one cell: a line break in it cannot forge a decision's row.
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", it.DecidedAt, shortID(it.SessionID), cell(it.AgentName), it.Verdict, cell(who), cell(it.Title))
	}
	tw.Flush()
	return ExitOK
}
