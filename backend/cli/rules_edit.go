package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"agentdesk/backend/atomicfile"
	"agentdesk/backend/export"
)

func rulesRmCommand(run runner) *cobra.Command {
	var id string
	cmd := &cobra.Command{
		Use:   "rm RULE",
		Short: "Remove a rule (RULE is its id or the start of it); its decisions stay in the audit log",
		Args:  cobra.ExactArgs(1),
	}
	inner := run("rm", func(ctx context.Context, env *rulesEnv, out io.Writer) error {
		full, err := ruleID(ctx, env, id)
		if err != nil {
			return err
		}
		if err := env.h.DeleteRule(ctx, full); err != nil {
			return err
		}
		fmt.Fprintf(out, "removed %s\n", shortID(full))
		return nil
	})
	cmd.RunE = func(c *cobra.Command, args []string) error { id = args[0]; return inner(c, args) }
	return cmd
}

// ruleID finds the one rule whose id is prefix or starts with it.
func ruleID(ctx context.Context, env *rulesEnv, prefix string) (string, error) {
	l, err := env.h.Rules(ctx)
	if err != nil {
		return "", err
	}
	var found []string
	for _, r := range l.Rules {
		if r.ID == prefix {
			return r.ID, nil
		}
		if prefix != "" && strings.HasPrefix(r.ID, prefix) {
			found = append(found, r.ID)
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return "", fmt.Errorf("no rule %q: see agentdesk rules list", prefix)
	}
	return "", fmt.Errorf("%q is the start of %d rules' ids: give more of it", prefix, len(found))
}

func rulesSwitchCommand(run runner, verb, short string) *cobra.Command {
	var id string
	cmd := &cobra.Command{Use: verb, Short: short, Args: cobra.NoArgs}
	if verb == "disable" || verb == "enable" {
		cmd.Use, cmd.Args = verb+" RULE", cobra.ExactArgs(1)
	}
	inner := run(verb, func(ctx context.Context, env *rulesEnv, out io.Writer) error {
		switch verb {
		case "pause", "resume":
			if err := env.h.SetRulesPaused(ctx, verb == "pause"); err != nil {
				return err
			}
			fmt.Fprintf(out, "rules %sd\n", strings.TrimSuffix(verb, "e"))
			return nil
		}
		full, err := ruleID(ctx, env, id)
		if err != nil {
			return err
		}
		info, err := env.h.SetRuleDisabled(ctx, full, verb == "disable")
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "%sd %s: %s %s\n", strings.TrimSuffix(verb, "e"), shortID(info.ID), info.Decision, safeLine(info.Label))
		return nil
	})
	cmd.RunE = func(c *cobra.Command, args []string) error {
		if len(args) > 0 {
			id = args[0]
		}
		return inner(c, args)
	}
	return cmd
}

func rulesExportCommand(run runner) *cobra.Command {
	var file string
	cmd := &cobra.Command{
		Use:   "export [-o FILE]",
		Short: "Write every rule as JSON (to stdout, or FILE)",
		Args:  cobra.NoArgs,
	}
	cmd.Flags().StringVarP(&file, "output", "o", "", "write to this file instead of stdout")
	cmd.RunE = run("export", func(ctx context.Context, env *rulesEnv, out io.Writer) error {
		data, err := env.h.ExportRules(ctx)
		if err != nil {
			return err
		}
		if file == "" {
			return writeJSONText(out, data)
		}
		if err := atomicfile.Write(file, data, 0o644); err != nil {
			return fmt.Errorf("%s", export.DescribeSaveError(file, err))
		}
		return nil
	})
	return cmd
}

func rulesImportCommand(run runner, stdio Stdio) *cobra.Command {
	var file string
	cmd := &cobra.Command{
		Use:   "import FILE",
		Short: "Add the rules of a JSON file (- reads stdin); a rule with an id already here replaces it",
		Long: `Add the rules of a file written by agentdesk rules export (or the window's Export). A rule whose id
is already here replaces it; one without an id is added. A file with one invalid rule imports
none, and the error names the rule.`,
		Args: cobra.ExactArgs(1),
	}
	inner := run("import", func(ctx context.Context, env *rulesEnv, out io.Writer) error {
		var data []byte
		var err error
		if file == "-" {
			data, err = io.ReadAll(stdio.In)
		} else {
			data, err = os.ReadFile(file)
		}
		if err != nil {
			return fmt.Errorf("read %s: %w", file, err)
		}
		n, err := env.h.ImportRules(ctx, data)
		if err != nil {
			return fmt.Errorf("%s: %w", file, err)
		}
		fmt.Fprintf(out, "imported %d rule(s)\n", n)
		return nil
	})
	cmd.RunE = func(c *cobra.Command, args []string) error { file = args[0]; return inner(c, args) }
	return cmd
}
