package cli

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"agentdesk/backend/changes"
	"agentdesk/backend/hub"
)

// The commands of the change ledger: changes prints what a session's turns did to its folders
// as a unified diff, revert puts files back as they were before a turn.

func changesCommand(stdio Stdio) *cobra.Command {
	var db string
	var turn int
	cmd := &cobra.Command{
		Use:   "changes [flags] ID",
		Short: "Print what a session's turns changed on disk, as a unified diff",
		Long: `Print what every turn of a saved session changed in its folders (or only turn --turn), as
a unified diff: whatever wrote the files, the agent, its commands or anyone else during the turn.
Binary files and files over the ledger's size limit are named, not shown.`,
		Example: `  agentdesk changes 3f6c1f9e
  agentdesk changes 3f6c1f9e --turn 2 | less -R`,
		Args:              oneSessionID,
		ValidArgsFunction: completeSessionID(&db),
		RunE: func(cmd *cobra.Command, args []string) error {
			return result(printChanges(cmd.Context(), db, args[0], turn, stdio.Out, stdio.Err))
		},
	}
	cmd.Flags().StringVar(&db, "db", "", "database file")
	cmd.Flags().IntVar(&turn, "turn", 0, "only this turn")
	return cmd
}

func oneSessionID(_ *cobra.Command, args []string) error {
	if len(args) != 1 {
		return fmt.Errorf("give one session id (see agentdesk history)")
	}
	return nil
}

// openLedger opens the core (openCore) with the history opened to write (the ledger records
// what it learns) and the change ledger beside it; nil after saying why on stderr. The caller
// closes the core.
func openLedger(ctx context.Context, db, command string, stderr io.Writer) *hub.Core {
	c, err := openCore(ctx, command, hub.Options{DB: db, Store: hub.StoreRequired}, nil)
	if err == nil && c.LedgerErr != nil {
		c.Close(ctx)
		err = c.LedgerErr
	}
	if err != nil {
		fmt.Fprintf(stderr, "agentdesk %s: %v\n", command, err)
		return nil
	}
	return c
}

func printChanges(ctx context.Context, db, prefix string, turn int, stdout, stderr io.Writer) int {
	c := openLedger(ctx, db, "changes", stderr)
	if c == nil {
		return ExitFailed
	}
	defer c.Close(ctx)
	st, h, mask := c.Store, c.Hub, c.Catalog.Masker()
	masked := newScreen(stdout).masked(mask) // a diff may quote a secret
	defer masked.Flush()
	id, err := resolveSessionID(ctx, st, prefix)
	if err != nil {
		fmt.Fprintf(stderr, "agentdesk changes: %v\n", err)
		return ExitFailed
	}
	v, err := h.SessionChanges(ctx, id)
	if err != nil {
		fmt.Fprintf(stderr, "agentdesk changes: %v\n", err)
		return ExitFailed
	}
	found := false
	for _, t := range v.Turns {
		if turn != 0 && t.Turn != turn {
			continue
		}
		found = true
		if err := printTurn(ctx, h, id, t, masked); err != nil {
			fmt.Fprintf(stderr, "agentdesk changes: %v\n", err)
			return ExitFailed
		}
	}
	if !found && turn != 0 {
		fmt.Fprintf(stderr, "agentdesk changes: the session has no turn %d\n", turn)
		return ExitFailed
	}
	return ExitOK
}

// printTurn prints one turn's header and its files' diffs.
func printTurn(ctx context.Context, h *hub.Hub, id string, t changes.TurnView, out io.Writer) error {
	fmt.Fprintf(out, "# turn %d: %s\n", t.Turn, safeLine(firstLine(t.Prompt)))
	switch {
	case t.Changes.Error != "":
		fmt.Fprintf(out, "# %s\n\n", safeLine(t.Changes.Error))
		return nil
	case len(t.Changes.Files) == 0:
		fmt.Fprint(out, "# no files changed\n\n")
		return nil
	}
	for _, n := range t.Changes.Notes {
		fmt.Fprintf(out, "# note: %s\n", safeLine(n))
	}
	for _, f := range t.Changes.Files {
		d, err := h.ChangeDiff(ctx, id, t.Turn, f.Root, f.Path)
		if err != nil {
			return err
		}
		writeUnified(out, d)
	}
	fmt.Fprintln(out)
	return nil
}

// writeUnified prints one file's diff as git would; a name with a line break in it cannot
// forge a line of the diff (safeLine).
func writeUnified(out io.Writer, d changes.FileDiff) {
	d.Path, d.From = safeLine(d.Path), safeLine(d.From)
	from, to := "a/"+d.Path, "b/"+d.Path
	if d.From != "" {
		from = "a/" + d.From
	}
	fmt.Fprintf(out, "diff %s %s\n", from, to)
	switch {
	case d.Change == "renamed":
		fmt.Fprintf(out, "rename from %s\nrename to %s\n", d.From, d.Path)
		return
	case d.TooBig:
		fmt.Fprintf(out, "File %s was over the ledger's size limit: %s, not shown\n", d.Path, d.Change)
		return
	case d.Binary:
		fmt.Fprintf(out, "Binary file %s %s\n", d.Path, d.Change)
		return
	}
	if d.Before == nil {
		from = "/dev/null"
	}
	if d.After == nil {
		to = "/dev/null"
	}
	fmt.Fprintf(out, "--- %s\n+++ %s\n", from, to)
	for _, hk := range d.Hunks {
		fmt.Fprintf(out, "@@ -%d,%d +%d,%d @@\n", hk.OldStart, hk.OldLines, hk.NewStart, hk.NewLines)
		for _, ln := range hk.Lines {
			fmt.Fprintln(out, ln)
		}
	}
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if len(s) > 100 {
		s = s[:100] + "…"
	}
	return s
}
