package cli

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"agentdesk/backend/agents"
	"agentdesk/backend/hub"
	"agentdesk/backend/registry"
)

// agents: what can be started (the Demo agent, the presets, the registry's installs and the
// custom agents), and the presets' pinned packages installed, updated, rolled back and
// overrides reset without the window (backend/agents presets.go, backend/registry.Presets).

func agentsCommand(stdio Stdio) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "agents [--json]",
		Short: "List the agents run and the window can start: presets, your custom agents, and whether each is installed",
		Long: `List the agents run and the window can start, with the version each runs.

A preset with an npm package (claude, codex, gemini, opencode, qwen, copilot) runs a copy of that
package installed by agentdesk at the version this build pins, its integrity checked, never npx:
install it with "agentdesk agents install ID", move it to a newer pin or another version with
"agentdesk agents update ID [--version V]". A preset's override (the agent's settings in the
window) may choose your own command on PATH instead, other arguments, variables, a default folder
or version; "agentdesk agents reset ID" removes it.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			c, err := openCore(cmd.Context(), "agents", hub.Options{Store: hub.StoreNone}, nil)
			if err != nil {
				fmt.Fprintf(stdio.Err, "agentdesk agents: %v\n", err)
				return result(ExitFailed)
			}
			defer c.Close(cmd.Context())
			if c.CatalogErr != nil {
				fmt.Fprintf(stdio.Err, "agentdesk agents: %v\n", c.CatalogErr)
			}
			return result(printAgents(c.Catalog.List(), asJSON, stdio.Out))
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the agents as JSON")
	cmd.AddCommand(presetInstallCommand(stdio, "install", "Install a preset's npm package at the version agentdesk pins (or --version)"),
		presetInstallCommand(stdio, "update", "Move an installed preset to the version agentdesk pins now (or --version); the old one is kept"),
		presetActionCommand(stdio, "rollback", "Go back to the version of a preset installed before", presetRollback),
		presetActionCommand(stdio, "reset", "Remove your override of a preset: it starts as agentdesk ships it", presetReset))
	return cmd
}

func printAgents(list []agents.Agent, asJSON bool, out io.Writer) int {
	if asJSON {
		if err := writeJSON(out, list); err != nil {
			return ExitFailed
		}
		return ExitOK
	}
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tNAME\tKIND\tVERSION\tINSTALLED\tCOMMAND")
	for _, a := range list {
		kind, installed, version := "built-in", "yes", a.Version
		switch p := a.Preset; {
		case a.Custom:
			kind = "custom"
		case strings.HasPrefix(a.ID, registry.AgentPrefix):
			kind = "registry"
		case p != nil:
			kind = "preset"
			if p.Overridden {
				kind = "preset, overridden"
			}
			if p.Own {
				kind += ", own command"
			}
			if p.UpdateTo != "" {
				installed = fmt.Sprintf("yes (update to %s: agentdesk agents update %s)", p.UpdateTo, a.ID)
			}
		}
		if !a.Available {
			installed = "no: " + a.Reason
		}
		if version == "" {
			version = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", cell(a.ID), cell(a.Name), kind, cell(version), cell(installed),
			cell(strings.Join(append([]string{a.Command}, a.Args...), " ")))
	}
	tw.Flush()
	return ExitOK
}

// openPresets is the core (its catalog and the presets' installer, an install's steps told on
// stderr); the caller closes it.
func openPresets(ctx context.Context, stderr io.Writer) (*hub.Core, error) {
	c, err := openCore(ctx, "agents", hub.Options{Store: hub.StoreNone}, nil)
	if err != nil {
		return nil, err
	}
	if c.RegistryErr != nil {
		_ = c.Close(ctx)
		return nil, c.RegistryErr
	}
	c.Presets.Installer.Progress = func(id, step string) { fmt.Fprintf(stderr, "%s: %s…\n", id, step) }
	return c, nil
}

// preset is the preset id, or an error saying what id is instead.
func preset(id string) (agents.Preset, error) {
	p, ok := agents.PresetByID(id)
	switch {
	case !ok && strings.HasPrefix(id, registry.AgentPrefix):
		return p, fmt.Errorf("%s is installed from the ACP registry: agentdesk registry install %s", id, strings.TrimPrefix(id, registry.AgentPrefix))
	case !ok:
		return p, fmt.Errorf("%q is not a preset (agentdesk agents lists them)", id)
	case p.Package == "":
		return p, fmt.Errorf("%s has no package agentdesk installs: it runs your own %s, found on PATH", p.Name, p.Command)
	}
	return p, nil
}

// presetInstallCommand is install and update: both put the preset's package in place at the
// version asked, else the override's, else the pin; update requires an install to move from.
func presetInstallCommand(stdio Stdio, verb, short string) *cobra.Command {
	var version string
	cmd := &cobra.Command{
		Use:   verb + " ID",
		Short: short,
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			fail := func(err error) error {
				fmt.Fprintf(stdio.Err, "agentdesk agents %s: %v\n", verb, err)
				return result(ExitFailed)
			}
			p, err := preset(args[0])
			if err != nil {
				return fail(err)
			}
			c, err := openPresets(cmd.Context(), stdio.Err)
			if err != nil {
				return fail(err)
			}
			defer c.Close(cmd.Context())
			if version == "" {
				o, _ := c.Catalog.Override(p.ID)
				version = o.Version
			}
			before := c.Presets.Installed(p.ID).Version
			if verb == "update" && before == "" {
				return fail(fmt.Errorf("%s is not installed: agentdesk agents install %s", p.Name, p.ID))
			}
			in, err := c.Presets.Install(cmd.Context(), p, version)
			if err != nil {
				return fail(err)
			}
			switch {
			case before == in.Version:
				fmt.Fprintf(stdio.Out, "%s %s is installed (%s)\n", in.Name, in.Version, in.Package)
			case before != "":
				fmt.Fprintf(stdio.Out, "Updated %s from %s to %s (%s kept: agentdesk agents rollback %s)\n", in.Name, before, in.Version, before, p.ID)
			default:
				fmt.Fprintf(stdio.Out, "Installed %s %s (%s): agentdesk run --agent %s\n", in.Name, in.Version, in.Package, p.ID)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&version, "version", "", "an exact version of the package instead of the pinned one (e.g. 1.2.3)")
	return cmd
}

func presetActionCommand(stdio Stdio, verb, short string, do func(c *hub.Core, p agents.Preset, out io.Writer) error) *cobra.Command {
	return &cobra.Command{
		Use:   verb + " ID",
		Short: short,
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			p, ok := agents.PresetByID(args[0])
			var err error
			if !ok {
				_, err = preset(args[0])
			}
			var c *hub.Core
			if err == nil {
				c, err = openPresets(cmd.Context(), stdio.Err)
			}
			if err == nil {
				defer c.Close(cmd.Context())
				err = do(c, p, stdio.Out)
			}
			if err != nil {
				fmt.Fprintf(stdio.Err, "agentdesk agents %s: %v\n", verb, err)
				return result(ExitFailed)
			}
			return nil
		},
	}
}

func presetRollback(c *hub.Core, p agents.Preset, out io.Writer) error {
	in, err := c.Presets.Installer.Rollback(p.ID)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "Rolled %s back to %s\n", in.Name, in.Version)
	return nil
}

func presetReset(c *hub.Core, p agents.Preset, out io.Writer) error {
	if _, ok := c.Catalog.Override(p.ID); !ok {
		fmt.Fprintf(out, "%s has no override\n", p.Name)
		return nil
	}
	if err := c.Catalog.ResetOverride(p.ID); err != nil {
		return err
	}
	fmt.Fprintf(out, "Reset %s: it starts as agentdesk ships it\n", p.Name)
	return nil
}
