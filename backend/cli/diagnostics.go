package cli

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"agentdesk/backend/acp"
	"agentdesk/backend/atomicfile"
	"agentdesk/backend/export"
)

// diagnosticsCommand writes a session's diagnostic bundle (export.DiagnosticArchive) for a bug
// report.
func diagnosticsCommand(stdio Stdio) *cobra.Command {
	var db, file string
	cmd := &cobra.Command{
		Use:   "diagnostics ID [-o FILE]",
		Short: "Write a session's diagnostic bundle for a bug report (secrets masked)",
		Long: `Write a diagnostic bundle of a saved session to FILE (a .tar.gz, written whole or not at all; by
default "<title> diagnostics.tar.gz" in the current folder): versions, how the agent introduced
itself, the session's turns and errors (no prompts), the agent's stderr tail, the protocol's first
and last messages and the history file's health. Every secret value agentdesk knows is masked.
ID is the first column of history; a unique prefix of it will do.`,
		Example:           `  agentdesk diagnostics 3f6c -o bug.tar.gz`,
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: completeSessionID(&db),
		RunE: func(cmd *cobra.Command, args []string) error {
			return result(writeDiagnostics(cmd.Context(), db, args[0], file, stdio))
		},
	}
	cmd.Flags().StringVar(&db, "db", "", "database file")
	cmd.Flags().StringVarP(&file, "output", "o", "", "write to this file")
	return cmd
}

// writeDiagnostics writes session prefix's bundle to file ("": named after the session) and
// says where on stdout; failures are said on stderr.
func writeDiagnostics(ctx context.Context, db, prefix, file string, stdio Stdio) int {
	c := openToPrint(ctx, db, "diagnostics", stdio.Err)
	if c == nil {
		return ExitFailed
	}
	defer c.Close(ctx)
	id, err := resolveSessionID(ctx, c.Store, prefix)
	if err != nil {
		fmt.Fprintf(stdio.Err, "agentdesk diagnostics: %v\n", err)
		return ExitUsage
	}
	mask := c.Catalog.Masker()
	d, err := c.Hub.Diagnose(ctx, id)
	var data []byte
	if err == nil {
		data, err = export.DiagnosticArchive(mask, d, time.Now())
	}
	if err != nil {
		fmt.Fprintf(stdio.Err, "agentdesk diagnostics: %v\n", err)
		return ExitFailed
	}
	if file == "" {
		file = export.FileName(export.DiagnosticsTitle(mask.Mask(d.Session.Title)), export.DiagnosticsExt)
	}
	file = export.WithExtension(file, export.DiagnosticsExt)
	if err := atomicfile.Write(file, data, 0o644); err != nil {
		fmt.Fprintf(stdio.Err, "agentdesk diagnostics: %s\n", export.DescribeSaveError(file, err))
		return ExitFailed
	}
	fmt.Fprintf(stdio.Out, "Wrote %s (%s): attach it to your bug report\n", file, acp.HumanSize(int64(len(data))))
	return ExitOK
}
