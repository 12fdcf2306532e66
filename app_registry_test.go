package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"agentdesk/backend/acp"
	"agentdesk/backend/registry"
	"agentdesk/backend/registry/registrytest"
)

// registryFixture serves a registry listing "demo-acp" at version and returns its index's address.
func registryFixture(t *testing.T, version string) string {
	r := registrytest.New(t)
	r.PublishDemo(version)
	return r.IndexURL()
}

func TestARegistryAgentInstallsStartsWithItsVersionAndIsRefusedOnceChanged(t *testing.T) {
	isolatedConfig(t)
	t.Setenv("AGENTDESK_DEMO_PACE", "0s")
	t.Setenv("AGENTDESK_REGISTRY_URL", registryFixture(t, "1.2.3"))
	a, rec := newTestApp(t)
	t.Cleanup(func() { a.shutdown(context.Background()) })
	var steps []string
	a.registry.installer.Progress = func(id, step string) { steps = append(steps, id+": "+step) }

	l, err := a.registry.ListRegistry()
	if err != nil || l.Offline || l.Origin != registry.OriginNetwork || len(l.Items) != 1 || l.Items[0].Installed != "" || !l.Items[0].Verified {
		t.Fatalf("listing: %+v %v", l, err)
	}
	it, err := a.registry.InstallRegistryAgent("demo-acp")
	if err != nil || it.Installed != "1.2.3" || it.Problem != "" || len(steps) < 2 {
		t.Fatalf("install: %+v %v (steps %v)", it, err, steps)
	}

	list, _ := a.agents.ListAgents()
	found := false
	for _, ag := range list {
		found = found || (ag.ID == "registry:demo-acp" && ag.Available && ag.Version == "1.2.3")
	}
	if !found {
		t.Fatalf("the installed agent is not in the picker's list: %+v", list)
	}
	info, err := a.sessions.StartSession("registry:demo-acp", t.TempDir(), nil, false, false)
	if err != nil || info.AgentVersion != "1.2.3" {
		t.Fatalf("start: %+v %v", info, err)
	}
	rec.waitFor(t, func(e acp.Event) bool { return e.Kind == acp.EventState && e.State == acp.StateIdle })
	if snap, err := a.sessions.Snapshot(info.SessionID); err != nil || snap.AgentVersion != "1.2.3" {
		t.Fatalf("the header's snapshot has no version: %q %v", snap.AgentVersion, err)
	}

	cmd := filepath.Join(filepath.Dir(os.Getenv("AGENTDESK_DB")), "registry", "agents", "demo-acp", "1.2.3", "agent")
	if err := os.WriteFile(cmd, []byte("#!/bin/sh\necho changed\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := a.sessions.StartSession("registry:demo-acp", t.TempDir(), nil, false, false); err == nil || !strings.Contains(err.Error(), "refused to start Demo ACP 1.2.3") {
		t.Fatalf("a changed command started: %v", err)
	}
	if l, _ := a.registry.ListRegistry(); !strings.Contains(l.Items[0].Problem, "changed since it was installed") {
		t.Fatalf("the view does not say the install changed: %+v", l.Items[0])
	}
	if err := a.registry.UninstallRegistryAgent("demo-acp"); err != nil {
		t.Fatal(err)
	}
	if _, err := a.sessions.StartSession("registry:demo-acp", t.TempDir(), nil, false, false); err == nil || !strings.Contains(err.Error(), "no agent") {
		t.Fatalf("an uninstalled agent started: %v", err)
	}
}
