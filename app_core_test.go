package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"agentdesk/backend/agents"
)

// vaultSecret is a custom agent's secret that no session of the test's agents is given.
const vaultSecret = "sk-vault-7Hq2Zp"

// The window (App.init) and the command line open one core (hub.Open): on the same data and
// config folders they list the same agents, the one installed from the registry included (the
// command line also starts it), and mask a stored secret the same way, also one no agent of
// theirs was given, once the history's one-time pass has run (before, both knew only the
// values the pass had read: none, the second time).
func TestTheWindowAndTheCommandLineOpenTheSameCore(t *testing.T) {
	isolatedConfig(t)
	t.Setenv("AGENTDESK_DEMO_PACE", "0s")
	t.Setenv("AGENTDESK_REGISTRY_URL", registryFixture(t, "1.2.3"))
	self, err := filepath.Abs(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	cat, _ := agents.OpenCatalog(nil, nil) // saved as the window's agent editor does
	if _, _, err := cat.Save(agents.Custom{Name: "Vault", Command: self, Args: []string{"demo-agent"},
		Env: []agents.EnvVar{{Name: "VAULT_TOKEN", Secret: true}}}, map[string]string{"VAULT_TOKEN": vaultSecret}); err != nil {
		t.Fatal(err)
	}

	// The first window installs the agent and runs the one-time pass over the history.
	first, _ := newTestApp(t)
	first.registry.installer.Progress = func(string, string) {} // the test's emitter takes session events only
	if _, err := first.registry.ListRegistry(); err != nil {
		t.Fatal(err)
	}
	if _, err := first.registry.InstallRegistryAgent("demo-acp"); err != nil {
		t.Fatal(err)
	}
	<-first.masking.OnceDone()
	first.shutdown(context.Background())

	window, _ := newTestApp(t)
	<-window.masking.OnceDone()
	var windowIDs []string
	for _, a := range window.catalog.List() {
		windowIDs = append(windowIDs, a.ID)
	}
	prompt := "print " + vaultSecret
	windowMasked := window.catalog.Masker().Mask(prompt)
	window.shutdown(context.Background()) // the command line opens the same history next
	if windowMasked != "print "+agents.Mask {
		t.Fatalf("the window's masker gives %q", windowMasked)
	}
	if !slices.Contains(windowIDs, "registry:demo-acp") || !slices.Contains(windowIDs, "vault") {
		t.Fatalf("the window lists %v", windowIDs)
	}

	var out, errOut bytes.Buffer
	if code := cliRun(nil, &out, &errOut, "agents", "--json"); code != 0 {
		t.Fatalf("agents: exit %d: %s", code, errOut.String())
	}
	var listed []agents.Agent
	if err := json.Unmarshal(out.Bytes(), &listed); err != nil {
		t.Fatalf("agents --json: %v\n%s", err, out.String())
	}
	var cliIDs []string
	for _, a := range listed {
		cliIDs = append(cliIDs, a.ID)
	}
	if !slices.Equal(cliIDs, windowIDs) {
		t.Fatalf("the command line lists %v, the window %v", cliIDs, windowIDs)
	}

	out.Reset()
	errOut.Reset()
	if code := cliRun(nil, &out, &errOut, "run", "--agent", "registry:demo-acp", "--permissions", "allow", "--cwd", t.TempDir(), prompt); code != 0 {
		t.Fatalf("run the registry agent: exit %d\n%s\n%s", code, out.String(), errOut.String())
	}
	if printed := out.String() + errOut.String(); strings.Contains(printed, vaultSecret) || !strings.Contains(out.String(), "> "+windowMasked) {
		t.Fatalf("run did not mask the secret as the window does (%q):\n%s", windowMasked, printed)
	}
}
