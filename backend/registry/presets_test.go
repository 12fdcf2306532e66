package registry

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"agentdesk/backend/agents"
	"agentdesk/backend/registry/npmtest"
)

// fixturePreset is a preset whose package is the npm fixture's, pinned at version with the
// integrity the fixture publishes for it.
func fixturePreset(f *npmtest.Server, version string) agents.Preset {
	return agents.Preset{ID: "claude", Name: "Claude Code", Command: "claude-agent-acp", Package: fixturePkg.Name,
		Version: version, Integrity: f.Integrity(fixturePkg.Name, version), Bin: fixturePkg.Bin, PackageArgs: []string{"--acp"}}
}

func TestPresetInstallsItsPinWithIntegrityAndStartsWithoutNpx(t *testing.T) {
	f := newNpmFixture(t, "1.0.0", "1.1.0")
	inst := npmInstaller(t, f)
	ps := Presets{Installer: inst}
	p := fixturePreset(f, "1.0.0")
	in, err := ps.Install(context.Background(), p, "")
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(inst.Root, "claude", "1.0.0", "node_modules", ".bin", "fixture-agent"); in.Command() != want || in.Package != "@fixture/agent@1.0.0" {
		t.Fatalf("install %+v, want command %s", in, want)
	}
	if got := run(t, in); got != "npm fixture agent 1.0.0 --acp" {
		t.Fatalf("installed preset printed %q", got)
	}
	// The catalog's launch command is the installed bin itself: no npx, no @latest, no fetch.
	a := p.Resolve(os.Environ(), agents.Override{}, ps.Installed("claude"))
	line := strings.Join(append([]string{a.Command}, a.Args...), " ")
	if !a.Available || a.Command != in.Command() || a.Version != "1.0.0" || !slices.Equal(a.Args, []string{"--acp"}) ||
		strings.Contains(line, "npx") || strings.Contains(line, "@latest") || a.Preset.UpdateTo != "" {
		t.Fatalf("launch of the installed preset: %q %+v", line, a.Preset)
	}
	if err := ps.Check("claude"); err != nil {
		t.Fatalf("check of a fresh install: %v", err)
	}
}

func TestPresetRefusesAPinnedIntegrityItDoesNotGet(t *testing.T) {
	f := newNpmFixture(t, "1.0.0", "1.1.0")
	inst := npmInstaller(t, f)
	p := fixturePreset(f, "1.0.0")
	p.Integrity = f.Integrity(fixturePkg.Name, "1.1.0") // the registry now serves other code under 1.0.0
	if _, err := (Presets{Installer: inst}).Install(context.Background(), p, ""); err == nil ||
		!strings.Contains(err.Error(), "refused to install @fixture/agent@1.0.0") || !strings.Contains(err.Error(), "integrity") {
		t.Fatalf("a tarball with another integrity than the pin's was installed: %v", err)
	}
	if got := (Presets{Installer: inst}).Installed("claude"); got.Version != "" {
		t.Fatalf("a refused install is recorded: %+v", got)
	}
}

// installedPreset serves 1.0.0 and 1.1.0 of the fixture and installs the preset pinned at 1.0.0.
func installedPreset(t *testing.T) (*npmtest.Server, *Installer, Presets) {
	t.Helper()
	f := newNpmFixture(t, "1.0.0", "1.1.0")
	inst := npmInstaller(t, f)
	ps := Presets{Installer: inst}
	if _, err := ps.Install(context.Background(), fixturePreset(f, "1.0.0"), ""); err != nil {
		t.Fatal(err)
	}
	return f, inst, ps
}

func TestPresetRefusesATamperedTarball(t *testing.T) {
	f, _, ps := installedPreset(t)
	ctx := context.Background()
	f.Tamper(fixturePkg.Name, "1.1.0") // served bytes differ from the packument's integrity
	if _, err := ps.Install(ctx, fixturePreset(f, "1.0.0"), "1.1.0"); err == nil || !strings.Contains(err.Error(), "npm could not install @fixture/agent@1.1.0") {
		t.Fatalf("a tampered tarball was installed: %v", err)
	}
	if got := ps.Installed("claude"); got.Version != "1.0.0" {
		t.Fatalf("after a refused update the install is %+v, want 1.0.0 kept", got)
	}
}

func TestPresetUpdateMovesOnlyWhenAsked(t *testing.T) {
	f, inst, ps := installedPreset(t)
	ctx := context.Background()
	// A newer build pins 1.1.0: the installed 1.0.0 still runs, and an update to 1.1.0 is offered.
	newer := fixturePreset(f, "1.1.0")
	a := newer.Resolve(os.Environ(), agents.Override{}, ps.Installed("claude"))
	if a.Version != "1.0.0" || a.Preset.UpdateTo != "1.1.0" || !strings.Contains(a.Command, "/1.0.0/") {
		t.Fatalf("a moved pin changed the running version: %s %+v", a.Command, a.Preset)
	}
	in, err := ps.Install(ctx, newer, "")
	if err != nil {
		t.Fatal(err)
	}
	st, _ := inst.Installed()
	if in.Version != "1.1.0" || run(t, in) != "npm fixture agent 1.1.0 --acp" || st[0].Previous != "1.0.0" {
		t.Fatalf("update: %+v %+v", in, st)
	}
	a = newer.Resolve(os.Environ(), agents.Override{}, ps.Installed("claude"))
	if a.Version != "1.1.0" || a.Preset.UpdateTo != "" {
		t.Fatalf("after the update: %s %+v", a.Version, a.Preset)
	}
	// An override's version is what Install and Update aim at.
	a = newer.Resolve(os.Environ(), agents.Override{ID: "claude", Version: "1.0.0"}, ps.Installed("claude"))
	if a.Preset.Pinned != "1.0.0" || a.Preset.UpdateTo != "1.0.0" {
		t.Fatalf("an override's version: %+v", a.Preset)
	}
}

func TestPresetVersionsThatAreNotExactAreRefused(t *testing.T) {
	inst := newInstaller(t)
	var ran bool
	inst.NPM = func(context.Context, string, []string) ([]byte, error) { ran = true; return nil, nil }
	p := agents.Preset{ID: "claude", Name: "Claude Code", Package: "@fixture/agent", Version: "1.0.0", Bin: "fixture-agent"}
	for _, v := range []string{"../x", "1.0.0 --foo", "--registry=http://evil/", "latest", "^1.0.0", "1.0.0/../../x", "1.0"} {
		if _, err := (Presets{Installer: inst}).Install(context.Background(), p, v); err == nil || !strings.Contains(err.Error(), "not an exact version") {
			t.Errorf("version %q: %v", v, err)
		}
	}
	if ran {
		t.Fatal("npm ran for a version that is not exact")
	}
	if ents, _ := os.ReadDir(inst.Root); len(ents) != 0 {
		t.Fatalf("a refused version left files under the install folder: %v", ents)
	}
	if _, err := PresetEntry(agents.Preset{ID: "goose", Name: "Goose", Command: "goose"}, ""); err == nil {
		t.Fatal("a preset without a package got an entry")
	}
}
