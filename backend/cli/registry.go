package cli

import (
	"context"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"agentdesk/backend/hub"
	"agentdesk/backend/registry"
)

// registry: the ACP registry on the command line — list its agents, and install, update, roll
// back and uninstall them, as the window's Registry view does (backend/registry). An installed
// agent is then started with `agentdesk run --agent registry:<id>`.

func registryCommand(stdio Stdio) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "registry",
		Short: "Browse the ACP registry and install its agents at pinned versions",
		Long: `Browse the ACP agent registry and install its agents into agentdesk's data folder, each at the
exact version the registry names (an npm package installed with npm, or the archive for this
platform, its sha256 checked). An installed agent starts as "registry:<id>" (agentdesk run --agent
registry:goose) and is refused if its command changed since it was installed. Update keeps the
previous version for rollback. Without a network the list is the cached copy, or the snapshot
shipped with agentdesk; AGENTDESK_REGISTRY_URL points at another index.`,
		Args: cobra.NoArgs,
	}
	cmd.AddCommand(registryListCommand(stdio),
		registryActionCommand(stdio, "install", "Install an agent at the version the registry names", registryInstall),
		registryActionCommand(stdio, "update", "Update an installed agent to the registry's version (the old one is kept)", registryUpdate),
		registryActionCommand(stdio, "rollback", "Go back to the version installed before", registryRollback),
		registryActionCommand(stdio, "uninstall", "Remove every installed version of an agent", registryUninstall))
	return cmd
}

// openRegistry is the core's registry (openCore: its default folder, the one the catalog lists
// the installed agents from): its Source and Installer, an install's steps told on stderr. npm
// runs on this process's environment: a terminal's is the login shell's.
func openRegistry(ctx context.Context, stderr io.Writer) (*registry.Source, *registry.Installer, error) {
	c, err := openCore(ctx, "registry", hub.Options{Store: hub.StoreNone}, nil)
	if err != nil {
		return nil, nil, err
	}
	_ = c.Close(ctx) // nothing of it but the registry is used
	if c.RegistryErr != nil {
		return nil, nil, c.RegistryErr
	}
	c.Installer.Progress = func(id, step string) { fmt.Fprintf(stderr, "%s: %s…\n", id, step) }
	return c.Registry, c.Installer, nil
}

func registryListCommand(stdio Stdio) *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List the registry's agents and what is installed of each",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			src, inst, err := openRegistry(cmd.Context(), stdio.Err)
			if err != nil {
				fmt.Fprintf(stdio.Err, "agentdesk registry: %v\n", err)
				return result(ExitFailed)
			}
			l := src.Load(cmd.Context())
			if l.Note != "" {
				fmt.Fprintln(stdio.Err, l.Note)
			}
			installed, _ := inst.Installed()
			have := map[string]registry.Status{}
			for _, st := range installed {
				have[st.Current.ID] = st
			}
			tw := tabwriter.NewWriter(stdio.Out, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tNAME\tVERSION\tINSTALLED\tFROM")
			for _, e := range l.Index.Agents {
				st := have[e.ID]
				cur := st.Current.Version
				if st.Previous != "" {
					cur += " (previous " + st.Previous + ")"
				}
				if cur == "" {
					cur = "-"
				}
				kind := e.Kind(registry.PlatformKey())
				if kind == "" {
					kind = "cannot install here"
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", e.ID, e.Name, e.Version, cur, kind)
			}
			return tw.Flush()
		},
	}
}

// registryAction does one verb on the agent id and says what it did.
type registryAction func(ctx context.Context, src *registry.Source, inst *registry.Installer, id string, out io.Writer) error

func registryActionCommand(stdio Stdio, verb, short string, do registryAction) *cobra.Command {
	return &cobra.Command{
		Use:   verb + " ID",
		Short: short,
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			src, inst, err := openRegistry(cmd.Context(), stdio.Err)
			if err == nil {
				err = do(cmd.Context(), src, inst, args[0], stdio.Out)
			}
			if err != nil {
				fmt.Fprintf(stdio.Err, "agentdesk registry %s: %v\n", verb, err)
				return result(ExitFailed)
			}
			return nil
		},
	}
}

// entry finds id in the index; offline, the cached copy or the snapshot is used (and said).
func entry(ctx context.Context, src *registry.Source, id string, out io.Writer) (registry.Entry, error) {
	l := src.Load(ctx)
	e, ok := l.Index.Find(id)
	if !ok {
		return e, fmt.Errorf("the registry lists no agent %q (agentdesk registry list)", id)
	}
	if l.Offline {
		fmt.Fprintln(out, l.Note)
	}
	return e, nil
}

func registryInstall(ctx context.Context, src *registry.Source, inst *registry.Installer, id string, out io.Writer) error {
	e, err := entry(ctx, src, id, out)
	if err != nil {
		return err
	}
	in, err := inst.Install(ctx, e)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "Installed %s %s: agentdesk run --agent %s%s\n", in.Name, in.Version, registry.AgentPrefix, in.ID)
	return nil
}

func registryUpdate(ctx context.Context, src *registry.Source, inst *registry.Installer, id string, out io.Writer) error {
	cur, err := inst.Current(id)
	if cur.Version == "" {
		return fmt.Errorf("%s is not installed: agentdesk registry install %s", id, id)
	}
	e, eerr := entry(ctx, src, id, out)
	if eerr != nil {
		return eerr
	}
	if e.Version == cur.Version && err == nil {
		fmt.Fprintf(out, "%s is up to date (%s)\n", cur.Name, cur.Version)
		return nil
	}
	in, err := inst.Install(ctx, e)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "Updated %s to %s (%s kept: agentdesk registry rollback %s)\n", in.Name, in.Version, cur.Version, id)
	return nil
}

func registryRollback(_ context.Context, _ *registry.Source, inst *registry.Installer, id string, out io.Writer) error {
	in, err := inst.Rollback(id)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "Rolled %s back to %s\n", in.Name, in.Version)
	return nil
}

func registryUninstall(_ context.Context, _ *registry.Source, inst *registry.Installer, id string, out io.Writer) error {
	if err := inst.Uninstall(id); err != nil {
		return err
	}
	fmt.Fprintf(out, "Uninstalled %s\n", id)
	return nil
}
