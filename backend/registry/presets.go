package registry

import (
	"context"
	"fmt"
	"path/filepath"

	"agentdesk/backend/agents"
)

// Presets installs the presets' npm packages (agents.Preset) with an Installer of their own,
// rooted apart from the registry's agents (<registry folder>/presets: OpenPresets), so a preset
// and a registry agent of the same id never share a record. Each install is the Installer's:
// the exact version in a folder of its own, npm checking each tarball against the registry's
// integrity and, at the version agentdesk pins, the package's tarball against the integrity
// pinned in code; the command's sha256 recorded and checked before every start (Check).
type Presets struct{ Installer *Installer }

var _ agents.PresetInstalls = Presets{}

// OpenPresets is the Installer of the presets' packages under dir (DefaultDir), npm running on
// env; its Root is dir/presets, or "" (every install refused) when dir is.
func OpenPresets(dir string, env []string) *Installer {
	in := &Installer{Env: env}
	if dir != "" {
		in.Root = filepath.Join(dir, "presets")
	}
	return in
}

// PresetEntry is the preset p at version as an entry its Installer installs: "" is the version
// p pins, whose tarball must then have the integrity p pins; another version must be exact
// (agents.ExactVersion) and is checked by npm against the registry's integrity only.
func PresetEntry(p agents.Preset, version string) (Entry, error) {
	if p.Package == "" {
		return Entry{}, fmt.Errorf("%s has no package agentdesk installs: it runs its own command %q, found on PATH", p.Name, p.Command)
	}
	pkg := Package{Package: p.Package + "@" + p.Version, Cmd: p.Bin, Args: p.PackageArgs, Integrity: p.Integrity}
	if version != "" && version != p.Version {
		if !agents.ExactVersion(version) {
			return Entry{}, fmt.Errorf("refused to install %s: %q is not an exact version such as %s", p.Name, version, p.Version)
		}
		pkg = Package{Package: p.Package + "@" + version, Cmd: p.Bin, Args: p.PackageArgs}
	} else {
		version = p.Version
	}
	return Entry{ID: p.ID, Name: p.Name, Version: version, Distribution: Distribution{Npx: &pkg}}, nil
}

// Install installs preset p at version ("": its pin) and makes it current; the version
// current before is kept for Rollback. It may take minutes (npm); ctx cancels it.
func (s Presets) Install(ctx context.Context, p agents.Preset, version string) (Install, error) {
	e, err := PresetEntry(p, version)
	if err != nil {
		return Install{}, err
	}
	return s.Installer.Install(ctx, e)
}

// Installed is the current install of preset id as its record says, or the zero value.
func (s Presets) Installed(id string) agents.PresetInstall {
	st, err := s.Installer.load(id)
	if err != nil {
		return agents.PresetInstall{}
	}
	in, ok := st.Installs[st.Current]
	if !ok {
		return agents.PresetInstall{}
	}
	return agents.PresetInstall{Version: in.Version, Command: in.Command()}
}

// Check verifies the installed command of preset id before it starts (Installer.Current).
func (s Presets) Check(id string) error {
	_, err := s.Installer.Current(id)
	return err
}
