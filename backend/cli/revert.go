package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/spf13/cobra"

	"agentdesk/backend/changes"
	"agentdesk/backend/hub"
)

type revertFlags struct {
	db    string
	turn  int
	file  string
	since bool
	yes   bool
}

func revertCommand(stdio Stdio) *cobra.Command {
	var f revertFlags
	cmd := &cobra.Command{
		Use:   "revert [flags] ID --turn N",
		Short: "Put files back as they were before a turn",
		Long: `Undo what turn --turn of a saved session changed on disk (or only --file PATH, or with
--since everything from that turn on). It first prints what it would do and asks; --yes does
it without asking. A file changed after the turn (by you, another session or a later turn) is
a conflict: nothing is written and the exit status is 4. The revert is recorded with the
session, and the window can undo it.`,
		Example: `  agentdesk revert 3f6c1f9e --turn 2
  agentdesk revert 3f6c1f9e --turn 2 --file src/main.go --yes`,
		Args:              oneSessionID,
		ValidArgsFunction: completeSessionID(&f.db),
		RunE: func(cmd *cobra.Command, args []string) error {
			if f.turn <= 0 {
				fmt.Fprintln(stdio.Err, "agentdesk revert: say which turn with --turn N (see agentdesk changes ID)")
				return result(ExitUsage)
			}
			if f.since && f.file != "" {
				fmt.Fprintln(stdio.Err, "agentdesk revert: --since and --file do not go together")
				return result(ExitUsage)
			}
			return result(revert(cmd.Context(), f, args[0], stdio))
		},
	}
	cmd.Flags().StringVar(&f.db, "db", "", "database file")
	cmd.Flags().IntVar(&f.turn, "turn", 0, "the turn to revert")
	cmd.Flags().StringVar(&f.file, "file", "", "only this file (a path beneath the session's folder)")
	cmd.Flags().BoolVar(&f.since, "since", false, "revert that turn and every later one")
	cmd.Flags().BoolVar(&f.yes, "yes", false, "do it without asking")
	return cmd
}

func revert(ctx context.Context, f revertFlags, prefix string, stdio Stdio) int {
	c := openLedger(ctx, f.db, "revert", stdio.Err)
	if c == nil {
		return ExitFailed
	}
	defer c.Close(ctx)
	st, h, mask := c.Store, c.Hub, c.Catalog.Masker()
	out := newScreen(stdio.Out).masked(mask)
	defer out.Flush()
	id, err := resolveSessionID(ctx, st, prefix)
	if err != nil {
		fmt.Fprintf(stdio.Err, "agentdesk revert: %v\n", err)
		return ExitFailed
	}
	req := changes.RevertRequest{SessionID: id, Turn: f.turn, Scope: changes.ScopeTurn}
	if f.since {
		req.Scope = changes.ScopeSince
	}
	if f.file != "" {
		if req.Root, req.Path, err = fileOfTurn(ctx, h, id, f.turn, f.file); err != nil {
			fmt.Fprintf(stdio.Err, "agentdesk revert: %v\n", err)
			return ExitFailed
		}
		req.Scope = changes.ScopeFile
	}
	plan, err := h.Revert(ctx, req, false)
	if err != nil {
		fmt.Fprintf(stdio.Err, "agentdesk revert: %v\n", revertErr(err))
		return ExitFailed
	}
	printPlan(out, plan)
	if plan.Conflicts > 0 {
		out.Flush()
		fmt.Fprintf(stdio.Err, "agentdesk revert: %d file(s) changed after turn %d; nothing was reverted\n", plan.Conflicts, f.turn)
		return ExitConflict
	}
	if !f.yes {
		out.Flush()
		fmt.Fprint(stdio.Err, "Revert these files? [y/N] ")
		if !confirmed(stdio.In) {
			fmt.Fprintln(stdio.Err, "agentdesk revert: nothing was reverted")
			return ExitConflict
		}
	}
	plan, err = h.Revert(ctx, req, true)
	switch {
	case err != nil:
		fmt.Fprintf(stdio.Err, "agentdesk revert: %v\n", revertErr(err))
		return ExitFailed
	case plan.Conflicts > 0: // something changed between the preview and now
		printPlan(out, plan)
		fmt.Fprintf(stdio.Err, "agentdesk revert: %d file(s) changed meanwhile; nothing was reverted\n", plan.Conflicts)
		return ExitConflict
	}
	fmt.Fprintf(out, "reverted (revert %s)\n", plan.RevertID)
	return ExitOK
}

// fileOfTurn finds the folder and path of file among turn turn's changes: a path relative to
// the session's folder, or an absolute one beneath any of its folders.
func fileOfTurn(ctx context.Context, h *hub.Hub, id string, turn int, file string) (string, string, error) {
	v, err := h.SessionChanges(ctx, id)
	if err != nil {
		return "", "", err
	}
	for _, t := range v.Turns {
		if t.Turn != turn {
			continue
		}
		for _, c := range t.Changes.Files {
			if filepath.ToSlash(file) == c.Path || filepath.Clean(file) == filepath.Join(c.Root, filepath.FromSlash(c.Path)) {
				return c.Root, c.Path, nil
			}
		}
		return "", "", fmt.Errorf("turn %d did not change %s (see agentdesk changes %s --turn %d)", turn, file, id[:8], turn)
	}
	return "", "", fmt.Errorf("the session has no turn %d", turn)
}

func printPlan(out io.Writer, p changes.Plan) {
	for _, f := range p.Files {
		path := safeLine(f.Path) // one line per file, whatever its name holds
		switch {
		case f.Conflict != "":
			fmt.Fprintf(out, "conflict  %s: %s\n", path, safeLine(f.Conflict))
		case f.Action == changes.ActionSkip:
			fmt.Fprintf(out, "skip      %s: %s\n", path, safeLine(f.Reason))
		default:
			fmt.Fprintf(out, "%-9s %s\n", f.Action, path)
		}
	}
}

// revertErr words the ledger's errors for the terminal.
func revertErr(err error) error {
	switch {
	case errors.Is(err, hub.ErrTurnRunning):
		return errors.New("a turn of this session is running: stop it or wait for it to end, then revert")
	case errors.Is(err, changes.ErrNoSnapshot):
		return fmt.Errorf("%w (the turn was saved before agentdesk recorded changes, or its folders could not be read)", err)
	}
	return err
}
