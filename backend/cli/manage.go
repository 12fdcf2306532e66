package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"agentdesk/backend/agents"
	"agentdesk/backend/atomicfile"
	"agentdesk/backend/export"
	"agentdesk/backend/hub"
	"agentdesk/backend/store"
)

// The commands that manage what agentdesk keeps: export writes a saved session to a file,
// delete removes one, agents lists what can be started, and history --json lists the history
// for a script.

func exportCommand(stdio Stdio) *cobra.Command {
	var db, format, file string
	cmd := &cobra.Command{
		Use:   "export ID [--format md|json] [-o FILE]",
		Short: "Write a saved session as Markdown or JSON, to a file or stdout",
		Long: `Write a saved session as Markdown (the default) or JSON — the window's export, with every secret value
masked — to FILE (written whole or not at all) or to stdout. ID is the first column of history; a
unique prefix of it will do.`,
		Example: `  agentdesk export 3f6c1f9e -o fix-the-build.md
  agentdesk export 3f6c --format json -o session.json`,
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: completeSessionID(&db),
		RunE: func(cmd *cobra.Command, args []string) error {
			if format != export.Markdown && format != export.JSON {
				return fmt.Errorf("--format must be md or json, not %q", format)
			}
			if file == "" {
				return result(showSession(cmd.Context(), db, format, args[0], stdio.Out, stdio.Err))
			}
			var b strings.Builder
			if code := showSession(cmd.Context(), db, format, args[0], &b, stdio.Err); code != ExitOK {
				return result(code)
			}
			if err := atomicfile.Write(export.WithExtension(file, format), []byte(b.String()), 0o644); err != nil {
				fmt.Fprintf(stdio.Err, "agentdesk export: %s\n", export.DescribeSaveError(file, err))
				return result(ExitFailed)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&db, "db", "", "database file")
	cmd.Flags().StringVar(&format, "format", export.Markdown, "md or json")
	cmd.Flags().StringVarP(&file, "output", "o", "", "write to this file instead of stdout")
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions([]string{export.Markdown, export.JSON}, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

func deleteCommand(stdio Stdio) *cobra.Command {
	var db string
	var yes, keep bool
	cmd := &cobra.Command{
		Use:   "delete ID [--yes] [--keep-worktree]",
		Short: "Delete a saved session (its transcript, journal, decisions and recorded changes); asks first",
		Long: `Delete a saved session from the history: its transcript, journal, permission decisions and the
change ledger's record of its turns. Your files are not touched. A session started with
--worktree takes its worktree and branch with it, unless --keep-worktree (git then keeps them
and agentdesk forgets them). It asks first unless --yes. Delete a session the window has open
from the window instead.`,
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: completeSessionID(&db),
		RunE: func(cmd *cobra.Command, args []string) error {
			return result(deleteSession(cmd.Context(), db, args[0], yes, keep, stdio))
		},
	}
	cmd.Flags().StringVar(&db, "db", "", "database file")
	cmd.Flags().BoolVar(&yes, "yes", false, "delete without asking")
	cmd.Flags().BoolVar(&keep, "keep-worktree", false, "keep the session's worktree and branch in git")
	return cmd
}

func deleteSession(ctx context.Context, db, prefix string, yes, keep bool, stdio Stdio) int {
	c, id, code := openSessionCore(ctx, db, "delete", prefix, stdio)
	if c == nil {
		return code
	}
	defer c.Close(ctx)
	st, mask := c.Store, c.Catalog.Masker()
	tree, err := worktreeWords(ctx, c.Hub, id)
	switch {
	case errors.Is(err, hub.ErrNoWorktree) || errors.Is(err, hub.ErrNoWorktrees):
		tree = ""
	case err != nil:
		fmt.Fprintf(stdio.Err, "agentdesk delete: %v\n", err)
		return ExitFailed
	}
	if !yes {
		s, turns, err := st.SessionTurns(ctx, id)
		if err != nil {
			fmt.Fprintf(stdio.Err, "agentdesk delete: %v\n", err)
			return ExitFailed
		}
		also := ""
		if tree != "" && !keep {
			also = ", with " + tree
		}
		fmt.Fprintf(stdio.Err, "Delete %q (%s, %d turn(s), %s)%s? [y/N] ", mask.Mask(s.Title), s.AgentName, len(turns), s.Cwd, also)
		if !confirmed(stdio.In) {
			fmt.Fprintln(stdio.Err, "agentdesk delete: nothing was deleted")
			return ExitFailed
		}
	}
	if tree != "" && !keep {
		if err := c.Hub.DiscardWorktree(ctx, id); err != nil {
			fmt.Fprintf(stdio.Err, "agentdesk delete: %v (nothing was deleted; --keep-worktree deletes the session alone)\n", err)
			return ExitFailed
		}
	}
	if err := st.DeleteSession(ctx, id); err != nil {
		fmt.Fprintf(stdio.Err, "agentdesk delete: %v\n", err)
		return ExitFailed
	}
	fmt.Fprintf(stdio.Out, "deleted %s\n", id)
	return ExitOK
}

// historyItem is one saved session as history --json prints it.
type historyItem struct {
	ID        string `json:"id"`
	Title     string `json:"title"`
	AgentID   string `json:"agentId"`
	AgentName string `json:"agentName"`
	Cwd       string `json:"cwd"`
	Outcome   string `json:"outcome"`
	Turns     int    `json:"turns"`
	CreatedAt string `json:"createdAt"` // RFC 3339
	UpdatedAt string `json:"updatedAt"`
	Snippet   string `json:"snippet,omitempty"` // --search: the matching words marked [[like this]]
}

func printHistoryJSON(rows []store.Summary, mask *agents.Masker, out io.Writer) int {
	items := make([]historyItem, 0, len(rows))
	for _, r := range rows {
		items = append(items, historyItem{ID: r.ID, Title: mask.Mask(r.Title), AgentID: r.AgentID, AgentName: r.AgentName,
			Cwd: r.Cwd, Outcome: r.Outcome, Turns: r.Turns, CreatedAt: r.CreatedAt.Format(time.RFC3339),
			UpdatedAt: r.UpdatedAt.Format(time.RFC3339), Snippet: hub.MaskSnippet(mask, r.Snippet)})
	}
	if err := writeJSON(out, items); err != nil {
		return ExitFailed
	}
	return ExitOK
}
