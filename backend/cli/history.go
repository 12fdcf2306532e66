package cli

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"agentdesk/backend/export"
	"agentdesk/backend/hub"
	"agentdesk/backend/store"
)

// The commands that read the history: history lists it, show prints one session. Both also
// read a history they cannot write (a copy on a read-only disk), and print no secret value
// stored for the agents, also in sessions saved before it was a secret.

func historyCommand(stdio Stdio) *cobra.Command {
	var db, search string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "history [flags]",
		Short: "List saved sessions, newest first",
		Long: `List saved sessions, newest first, or those matching --search (full-text, best first,
with the matching words marked [[like this]]). The first column is the session's id, for show.`,
		Example: `  agentdesk history
  agentdesk history --search "build failed"`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return result(listHistory(cmd.Context(), db, search, asJSON, stdio.Out, stdio.Err))
		},
	}
	cmd.Flags().StringVar(&db, "db", "", "database file")
	cmd.Flags().StringVar(&search, "search", "", "full-text search")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the sessions as a JSON array")
	return cmd
}

func listHistory(ctx context.Context, db, search string, asJSON bool, stdout, stderr io.Writer) int {
	c := openToPrint(ctx, db, "history", stderr)
	if c == nil {
		return ExitFailed
	}
	defer c.Close(ctx)
	st, mask := c.Store, c.Catalog.Masker()
	masked := newScreen(stdout).masked(mask) // anything else printed may quote a secret too
	defer masked.Flush()
	stdout = masked
	rows, err := st.ListSessions(ctx, search, 1000)
	if err != nil {
		fmt.Fprintf(stderr, "agentdesk history: %v\n", err)
		return ExitFailed
	}
	if asJSON {
		return printHistoryJSON(rows, mask, stdout)
	}
	if len(rows) == 0 {
		fmt.Fprintln(stdout, "no saved sessions")
		return ExitOK
	}
	for _, r := range rows {
		fmt.Fprintf(stdout, "%s  %s  %-12s %-24s %d turn(s)  %s  %s\n", r.ID, r.UpdatedAt.Local().Format("2006-01-02 15:04"),
			r.Outcome, safeLine(r.AgentName), r.Turns, safeLine(r.Cwd), safeLine(mask.Mask(r.Title)))
		if r.Snippet != "" {
			// The match markers may cut a value in pieces that the writer would not recognise.
			fmt.Fprintf(stdout, "    %s\n", safeLine(hub.MaskSnippet(mask, r.Snippet)))
		}
	}
	return ExitOK
}

func showCommand(stdio Stdio) *cobra.Command {
	var db, format string
	cmd := &cobra.Command{
		Use:   "show [flags] ID",
		Short: "Print a saved session",
		Long: `Print a saved session as Markdown (the default) or JSON. ID is the first column of history;
a unique prefix of it will do.`,
		Example: `  agentdesk show 3f6c1f9e
  agentdesk show 3f6c1f9e --format json > session.json`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 1 {
				return fmt.Errorf("give one session id (see agentdesk history)")
			}
			return nil
		},
		ValidArgsFunction: completeSessionID(&db),
		RunE: func(cmd *cobra.Command, args []string) error {
			return result(showSession(cmd.Context(), db, format, args[0], stdio.Out, stdio.Err))
		},
	}
	cmd.Flags().StringVar(&db, "db", "", "database file")
	cmd.Flags().StringVar(&format, "format", export.Markdown, "md or json")
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions([]string{export.Markdown, export.JSON}, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

func showSession(ctx context.Context, db, format, prefix string, stdout, stderr io.Writer) int {
	c := openToPrint(ctx, db, "show", stderr)
	if c == nil {
		return ExitFailed
	}
	defer c.Close(ctx)
	st, mask := c.Store, c.Catalog.Masker()
	id, err := resolveSessionID(ctx, st, prefix)
	if err != nil {
		fmt.Fprintf(stderr, "agentdesk show: %v\n", err)
		return ExitFailed
	}
	s, turns, entries, err := st.Session(ctx, id)
	var perms []store.Permission
	if err == nil {
		perms, err = st.Permissions(ctx, id)
	}
	if err == nil {
		var out string
		if out, err = export.Render(mask, s, turns, entries, perms, format); err == nil {
			if err = writeDocument(stdout, out, format); err == nil {
				return ExitOK
			}
		}
	}
	fmt.Fprintf(stderr, "agentdesk show: %v\n", err)
	return ExitFailed
}

// writeDocument writes a session's export doc in format: JSON escaped (writeJSONText), so the
// text is exact and harmless; Markdown as it is, which on a screen is filtered (export -o writes
// the exact document to its file).
func writeDocument(w io.Writer, doc, format string) error {
	if format == export.JSON {
		return writeJSONText(w, []byte(doc))
	}
	_, err := io.WriteString(w, doc)
	return err
}

// openToPrint opens the core (openCore) for command, which prints from the history at db ("":
// the default one), read-only when it cannot be written: its masker knows every secret value
// stored for the agents, and the one-time masking pass has run (hub.Open). It says
// why on stderr and returns nil when the history cannot be opened; a pass that failed is said
// too, and the history is printed all the same. The caller closes the core.
func openToPrint(ctx context.Context, db, command string, stderr io.Writer) *hub.Core {
	c, err := openCore(ctx, command, hub.Options{DB: db, Store: hub.StoreReadable}, nil)
	if err != nil {
		fmt.Fprintf(stderr, "agentdesk %s: %v\n", command, err)
		return nil
	}
	if c.MaskErr != nil {
		fmt.Fprintf(stderr, "agentdesk %s: %v\n", command, c.MaskErr)
	}
	return c
}

// resolveSessionID accepts a whole id or a prefix that matches exactly one saved session.
func resolveSessionID(ctx context.Context, st *store.Store, prefix string) (string, error) {
	rows, err := st.ListSessions(ctx, "", 0)
	if err != nil {
		return "", err
	}
	var found []string
	for _, r := range rows {
		if r.ID == prefix {
			return r.ID, nil
		}
		if strings.HasPrefix(r.ID, prefix) {
			found = append(found, r.ID)
		}
	}
	switch len(found) {
	case 0:
		return "", fmt.Errorf("no saved session %q (see agentdesk history)", prefix)
	case 1:
		return found[0], nil
	}
	return "", fmt.Errorf("%q matches %d sessions: give more of the id", prefix, len(found))
}

// completeSessionID completes show's ID from the history at *db, read-only (completion must
// not create or change a file), each with its date and agent. Titles are left out: completion
// output is not masked, and an older history may hold a secret in one.
func completeSessionID(db *string) cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if len(args) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		path := *db
		if path == "" {
			path, _ = store.DefaultPath()
		}
		st, err := store.OpenReadOnly(cmd.Context(), path)
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		defer st.Close()
		rows, _ := st.ListSessions(cmd.Context(), "", 0)
		var out []cobra.Completion
		for _, r := range rows {
			if strings.HasPrefix(r.ID, toComplete) {
				out = append(out, cobra.CompletionWithDesc(r.ID, r.UpdatedAt.Local().Format("2006-01-02 15:04")+" "+r.AgentName))
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}
