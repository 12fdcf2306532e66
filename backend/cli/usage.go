package cli

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"agentdesk/backend/store"
)

// usage prints the usage ledger: turns, time, tokens and cost of the saved sessions, grouped by
// day, agent, project or session (store.Usage).

func usageCommand(stdio Stdio) *cobra.Command {
	var db, since, by string
	cmd := &cobra.Command{
		Use:   "usage [flags]",
		Short: "Print turns, time, tokens and cost of the saved sessions",
		Long: `Print the usage ledger: for each day, agent, project (working folder) or session, the turns
started since --since, their time, and the tokens and cost the agents reported (summed per
currency). Agents that report nothing are counted by turns and time only, and named below the
table. --since takes a date (2006-01-02), a number of days (30d: today and the 29 before) or all.`,
		Example: `  agentdesk usage
  agentdesk usage --since 7d --by day
  agentdesk usage --since 2026-01-01 --by project`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			switch by {
			case store.UsageByDay, store.UsageByAgent, store.UsageByProject, store.UsageBySession:
			default:
				return fmt.Errorf("--by %q: use agent, project, day or session", by)
			}
			from, err := store.ParseUsageSince(since, time.Now())
			if err != nil {
				return fmt.Errorf("--since: %w", err)
			}
			return result(printUsage(cmd.Context(), db, by, from, stdio.Out, stdio.Err))
		},
	}
	cmd.Flags().StringVar(&db, "db", "", "database file")
	cmd.Flags().StringVar(&since, "since", "all", "start of the range: a date (2006-01-02), days (30d) or all")
	cmd.Flags().StringVar(&by, "by", store.UsageByAgent, "group by agent, project, day or session")
	return cmd
}

func printUsage(ctx context.Context, db, by string, since time.Time, stdout, stderr io.Writer) int {
	c := openToPrint(ctx, db, "usage", stderr)
	if c == nil {
		return ExitFailed
	}
	defer c.Close(ctx)
	st, mask := c.Store, c.Catalog.Masker()
	masked := newScreen(stdout).masked(mask) // labels are titles and paths: they may quote a secret
	defer masked.Flush()
	l, err := st.Usage(ctx, by, since, time.Time{})
	if err != nil {
		fmt.Fprintf(stderr, "agentdesk usage: %v\n", err)
		return ExitFailed
	}
	if len(l.Rows) == 0 {
		fmt.Fprintln(masked, "no turns in this range")
		return ExitOK
	}
	tw := tabwriter.NewWriter(masked, 0, 0, 2, ' ', 0)
	head := map[string]string{store.UsageByDay: "DAY", store.UsageByAgent: "AGENT", store.UsageByProject: "PROJECT",
		store.UsageBySession: "SESSION\tAGENT\tTITLE"}[by]
	fmt.Fprintln(tw, head+"\tTURNS\tTIME\tTOKENS IN\tTOKENS OUT\tTOKENS\tCOST")
	for _, r := range l.Rows {
		fmt.Fprintln(tw, usageLine(by, r))
	}
	total := "TOTAL"
	if by == store.UsageBySession {
		total += "\t\t"
	}
	fmt.Fprintln(tw, total+"\t"+usageNumbers(l.Total))
	if err := tw.Flush(); err != nil {
		fmt.Fprintf(stderr, "agentdesk usage: %v\n", err)
		return ExitFailed
	}
	if len(l.Silent) > 0 {
		fmt.Fprintf(masked, "\nReported no tokens or cost (counted by turns and time only): %s\n", strings.Join(l.Silent, ", "))
	}
	return ExitOK
}

// usageLine is one row of the table: its group's columns, then the numbers.
func usageLine(by string, r store.UsageRow) string {
	var cols string
	switch by {
	case store.UsageBySession:
		id := r.Key
		if len(id) > 8 {
			id = id[:8]
		}
		cols = id + "\t" + cell(r.Agent) + "\t" + cell(r.Label)
	case store.UsageByDay, store.UsageByProject:
		cols = cell(r.Key)
	default:
		cols = cell(r.Label)
	}
	return cols + "\t" + usageNumbers(r)
}

// usageNumbers are a row's numbers; "-" where the agents reported nothing.
func usageNumbers(r store.UsageRow) string {
	tokens := []string{"-", "-", "-"}
	if r.Reported > 0 {
		tokens = []string{strconv.FormatInt(r.TokensIn, 10), strconv.FormatInt(r.TokensOut, 10), strconv.FormatInt(r.TokensTotal, 10)}
	}
	var costs []string
	for _, c := range r.Costs {
		costs = append(costs, strings.TrimSpace(strconv.FormatFloat(c.Amount, 'f', 2, 64)+" "+c.Currency))
	}
	cost := "-"
	if len(costs) > 0 {
		cost = strings.Join(costs, ", ")
	}
	return fmt.Sprintf("%d\t%s\t%s\t%s", r.Turns, duration(r.WallMs), strings.Join(tokens, "\t"), cost)
}

// duration is a length of time for the table: 4.2s, 3m05s, 2h07m.
func duration(ms int64) string {
	d := time.Duration(ms) * time.Millisecond
	switch {
	case d < time.Minute:
		return strconv.FormatFloat(d.Seconds(), 'f', 1, 64) + "s"
	case d < time.Hour:
		return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	default:
		return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
	}
}

// cell keeps a label on one table cell (safeLine), and an empty one reads "(none)".
func cell(s string) string {
	s = safeLine(s)
	if s == "" {
		return "(none)"
	}
	return s
}
