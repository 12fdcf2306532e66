package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"agentdesk/backend/hub"
	"agentdesk/backend/worktree"
)

// maxMarkerLines bounds the lines of one conflict's merge apply prints.
const maxMarkerLines = 40

func applyCommand(stdio Stdio) *cobra.Command {
	return askingCommand(stdio, applySession, "apply ID [--yes]", "Bring a worktree session's changes into your own files",
		`Bring what a session started with --worktree changed (its commits and its uncommitted
files, against the commit it started from) into the working tree of your repository, file by
file as a three-way merge: a file you left as it was takes the session's version, one you
changed too is merged. It prints what it would do and asks; --yes does it without asking.
Nothing is committed, staged or checked out. If a file cannot be merged (you and the session
changed the same lines), the conflicts are printed, nothing is written and the exit status
is 4.`, `  agentdesk apply 3f6c1f9e
  agentdesk apply 3f6c1f9e --yes`)
}

// askingCommand is a command on one saved session that asks before it acts, unless --yes:
// run does it.
func askingCommand(stdio Stdio, run func(ctx context.Context, db, id string, yes bool, stdio Stdio) int, use, short, long, example string) *cobra.Command {
	var db string
	var yes bool
	cmd := &cobra.Command{
		Use: use, Short: short, Long: long, Example: example,
		Args:              oneSessionID,
		ValidArgsFunction: completeSessionID(&db),
		RunE: func(cmd *cobra.Command, args []string) error {
			return result(run(cmd.Context(), db, args[0], yes, stdio))
		},
	}
	cmd.Flags().StringVar(&db, "db", "", "database file")
	cmd.Flags().BoolVar(&yes, "yes", false, "do it without asking")
	return cmd
}

func applySession(ctx context.Context, db, prefix string, yes bool, stdio Stdio) int {
	c, id, code := openSessionCore(ctx, db, "apply", prefix, stdio)
	if c == nil {
		return code
	}
	defer c.Close(ctx)
	out := newScreen(stdio.Out)
	defer out.Flush()
	res, err := c.Hub.ApplyWorktree(ctx, id, false)
	if err != nil {
		fmt.Fprintf(stdio.Err, "agentdesk apply: %v\n", worktreeErr(err))
		return ExitFailed
	}
	printApply(out, res)
	switch {
	case res.Conflicts > 0:
		out.Flush()
		fmt.Fprintf(stdio.Err, "agentdesk apply: %d file(s) cannot be applied; nothing was written\n", res.Conflicts)
		return ExitConflict
	case toApply(res) == 0:
		fmt.Fprintln(out, "nothing to apply: your files already hold the session's changes")
		return ExitOK
	}
	if !yes {
		out.Flush()
		fmt.Fprintf(stdio.Err, "Apply %d file(s) to your working tree? [y/N] ", toApply(res))
		if !confirmed(stdio.In) {
			fmt.Fprintln(stdio.Err, "agentdesk apply: nothing was applied")
			return ExitConflict
		}
	}
	res, err = c.Hub.ApplyWorktree(ctx, id, true)
	switch {
	case err != nil:
		fmt.Fprintf(stdio.Err, "agentdesk apply: %v\n", worktreeErr(err))
		return ExitFailed
	case !res.Applied: // something changed between the preview and now
		printApply(out, res)
		out.Flush()
		fmt.Fprintf(stdio.Err, "agentdesk apply: %d file(s) changed meanwhile; nothing was written\n", res.Conflicts)
		return ExitConflict
	}
	fmt.Fprintf(out, "applied %d file(s); nothing was committed\n", toApply(res))
	return ExitOK
}

// toApply counts the files an apply writes or deletes.
func toApply(res worktree.ApplyResult) int {
	n := 0
	for _, f := range res.Files {
		if f.Action != worktree.ApplySame && f.Conflict == "" {
			n++
		}
	}
	return n
}

// printApply prints one line per file, and the merge of each conflict git could not resolve.
func printApply(out io.Writer, res worktree.ApplyResult) {
	for _, f := range res.Files {
		path := safeLine(f.Path)
		if f.Conflict == "" {
			fmt.Fprintf(out, "%-9s %s\n", f.Action, path)
			continue
		}
		fmt.Fprintf(out, "conflict  %s: %s\n", path, safeLine(f.Conflict))
		lines := strings.Split(strings.TrimSuffix(f.Markers, "\n"), "\n")
		for i, l := range lines {
			if f.Markers == "" || i == maxMarkerLines {
				if i == maxMarkerLines {
					fmt.Fprintf(out, "          … %d more line(s)\n", len(lines)-i)
				}
				break
			}
			fmt.Fprintf(out, "          %s\n", safeLine(l))
		}
	}
}

func discardCommand(stdio Stdio) *cobra.Command {
	return askingCommand(stdio, discardSession, "discard ID [--yes]", "Remove a worktree session's worktree and branch; asks first",
		`Remove the worktree and the agentdesk/ branch of a session started with --worktree, with
every change and commit in them. Your own files and branches are not touched, and the session
stays in the history. It asks first unless --yes.`, "  agentdesk discard 3f6c1f9e --yes")
}

func discardSession(ctx context.Context, db, prefix string, yes bool, stdio Stdio) int {
	c, id, code := openSessionCore(ctx, db, "discard", prefix, stdio)
	if c == nil {
		return code
	}
	defer c.Close(ctx)
	if !yes {
		what, err := worktreeWords(ctx, c.Hub, id)
		if err != nil {
			fmt.Fprintf(stdio.Err, "agentdesk discard: %v\n", worktreeErr(err))
			return ExitFailed
		}
		fmt.Fprintf(stdio.Err, "Discard %s? [y/N] ", what)
		if !confirmed(stdio.In) {
			fmt.Fprintln(stdio.Err, "agentdesk discard: nothing was discarded")
			return ExitFailed
		}
	}
	if err := c.Hub.DiscardWorktree(ctx, id); err != nil {
		fmt.Fprintf(stdio.Err, "agentdesk discard: %v\n", worktreeErr(err))
		return ExitFailed
	}
	fmt.Fprintf(stdio.Out, "discarded the worktree of %s\n", id)
	return ExitOK
}

// worktreeWords names session id's worktree and what discarding it loses, for a question.
func worktreeWords(ctx context.Context, h *hub.Hub, id string) (string, error) {
	t, err := h.SessionWorktree(ctx, id)
	if err != nil {
		return "", err
	}
	s, err := h.WorktreeStatus(ctx, id)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("the worktree %s and its branch %s (%d commit(s), %d uncommitted file(s))",
		safeLine(t.Path), safeLine(t.Branch), s.Ahead, s.Dirty), nil
}

// openSessionCore opens the history for a command on one saved session and resolves its id;
// a nil Core means the command failed with the code returned, having said why.
func openSessionCore(ctx context.Context, db, who, prefix string, stdio Stdio) (*hub.Core, string, int) {
	c, err := openCore(ctx, who, hub.Options{DB: db, Store: hub.StoreRequired}, nil)
	if err != nil {
		fmt.Fprintf(stdio.Err, "agentdesk %s: %v\n", who, err)
		return nil, "", ExitFailed
	}
	id, err := resolveSessionID(ctx, c.Store, prefix)
	if err != nil {
		c.Close(ctx)
		fmt.Fprintf(stdio.Err, "agentdesk %s: %v\n", who, err)
		return nil, "", ExitFailed
	}
	return c, id, ExitOK
}

// worktreeErr words the worktree verbs' errors for the terminal.
func worktreeErr(err error) error {
	switch {
	case errors.Is(err, hub.ErrTurnRunning):
		return errors.New("a turn of this session is running: stop it or wait for it to end, then try again")
	}
	return err
}
