package registry

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"agentdesk/backend/registry/npmtest"
)

// fixturePkg is the package the npm fixture serves: a node script that prints its version.
var fixturePkg = npmtest.Package{Name: "@fixture/agent", Bin: "fixture-agent"}

func newNpmFixture(t *testing.T, versions ...string) *npmtest.Server {
	return npmtest.New(t, fixturePkg, versions...)
}

// npmInstaller is an Installer running the real npm against the fixture only: its own cache
// and an empty user config, so nothing of the machine's npm setup (or the network) is used.
func npmInstaller(t *testing.T, f *npmtest.Server) *Installer {
	t.Helper()
	if _, err := exec.LookPath("npm"); err != nil {
		t.Skip("npm is not installed")
	}
	inst := newInstaller(t)
	inst.NPMFlags = f.Flags(t, t.TempDir())
	inst.Env = append(os.Environ(), "npm_config_update_notifier=false")
	return inst
}

func npmEntry(version string) Entry {
	return Entry{ID: "npm-fixture", Name: "npm Fixture", Version: version,
		Distribution: Distribution{Npx: &Package{Package: "@fixture/agent@" + version, Args: []string{"--acp"}}}}
}

func TestNpmInstallWithRealNpm(t *testing.T) {
	f := newNpmFixture(t, "1.0.0", "1.1.0")
	inst := npmInstaller(t, f)
	ctx := context.Background()
	in, err := inst.Install(ctx, npmEntry("1.0.0"))
	if err != nil {
		t.Fatal(err)
	}
	// Started directly from the private prefix: node_modules/.bin, never npx.
	if want := filepath.Join(inst.Root, "npm-fixture", "1.0.0", "node_modules", ".bin", "fixture-agent"); in.Command() != want || in.Package != "@fixture/agent@1.0.0" {
		t.Fatalf("install %+v, want command %s", in, want)
	}
	if got := run(t, in); got != "npm fixture agent 1.0.0 --acp" {
		t.Fatalf("installed agent printed %q", got)
	}
	if _, err := inst.Install(ctx, npmEntry("1.1.0")); err != nil {
		t.Fatal(err)
	}
	cur, _ := inst.Current("npm-fixture")
	if got := run(t, cur); got != "npm fixture agent 1.1.0 --acp" {
		t.Fatalf("updated agent printed %q", got)
	}
	if _, err := inst.Rollback("npm-fixture"); err != nil {
		t.Fatal(err)
	}
	cur, err = inst.Current("npm-fixture")
	if err != nil || run(t, cur) != "npm fixture agent 1.0.0 --acp" {
		t.Fatalf("rollback: %v", err)
	}
	// The bin npm linked is checked like a binary: a changed script is refused.
	real, _ := filepath.EvalSymlinks(cur.Command())
	if err := os.WriteFile(real, []byte("#!/usr/bin/env node\nconsole.log('evil')\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := inst.Current("npm-fixture"); err == nil || !strings.Contains(err.Error(), "refused to start") {
		t.Fatalf("a changed npm bin was not refused: %v", err)
	}

	// A version the registry does not have fails and leaves the current install alone.
	before := f.Fetched()
	if _, err := inst.Install(ctx, npmEntry("9.9.9")); err == nil || !strings.Contains(err.Error(), "npm could not install @fixture/agent@9.9.9") {
		t.Fatalf("a missing version installed: %v", err)
	}
	if f.Fetched() != before {
		t.Fatal("a tarball was downloaded for a missing version")
	}
	if st, _ := inst.Installed(); st[0].Current.Version != "1.0.0" {
		t.Fatalf("after a failed update: %+v", st)
	}
}

func TestNpmRefusesUnpinned(t *testing.T) {
	for _, spec := range []string{"@fixture/agent@latest", "@fixture/agent@^1.0.0", "@fixture/agent@1"} {
		var ran bool
		inst := newInstaller(t)
		inst.NPM = func(context.Context, string, []string) ([]byte, error) { ran = true; return nil, nil }
		e := Entry{ID: "pin", Name: "Pin", Version: "1.0.0", Distribution: Distribution{Npx: &Package{Package: spec}}}
		if _, err := inst.Install(context.Background(), e); err == nil || !strings.Contains(err.Error(), "not an exact version") || ran {
			t.Errorf("%s: %v (npm ran: %v)", spec, err, ran)
		}
	}
}
