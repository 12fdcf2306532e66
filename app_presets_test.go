package main

import (
	"context"
	"os/exec"
	"testing"

	"agentdesk/backend/agents"
	"agentdesk/backend/registry/npmtest"
)

func TestAPresetInstallsFromTheWindowStartsWithItsVersionAndIsOverriddenAndReset(t *testing.T) {
	if _, err := exec.LookPath("npm"); err != nil {
		t.Skip("npm is not installed")
	}
	isolatedConfig(t)
	t.Setenv("AGENTDESK_DEMO_PACE", "0s")
	codex, _ := agents.PresetByID("codex")
	npm := npmtest.New(t, npmtest.Package{Name: codex.Package, Bin: codex.Bin, Script: npmtest.DemoScript}, "2.5.0")
	npm.Setenv(t)
	a, _ := newTestApp(t)
	t.Cleanup(func() { a.shutdown(context.Background()) })
	var steps []string
	a.agents.emit = func(_ context.Context, name string, data ...interface{}) {
		if p, ok := data[0].(PresetProgress); ok && name == presetProgressEvent {
			steps = append(steps, p.ID+": "+p.Step)
		}
	}
	info, err := a.agents.presetInfo("codex")
	if err != nil || info.Available || info.Preset == nil || !info.Preset.Installable || info.Preset.Pinned != codex.Version {
		t.Fatalf("before the install: %+v %+v", info, info.Preset)
	}
	// The pinned version is not on the fixture registry: the install fails and says so.
	if _, err := a.agents.InstallPreset("codex"); err == nil {
		t.Fatal("installed a version the registry does not have")
	}
	// An override picks the version; the install follows it.
	s, _ := a.agents.GetPresetOverride("codex")
	if s.Name != "Codex" || s.Version != "" || s.Command != "" {
		t.Fatalf("the override of a preset with none: %+v", s)
	}
	s.Version, s.Folder = "2.5.0", t.TempDir()
	s.Env = []AgentEnvVar{{Name: "OPENAI_API_KEY", Value: "sk-override-123456", Secret: true}}
	if info, err = a.agents.SavePresetOverride(s); err != nil || !info.Preset.Overridden || info.Preset.Pinned != "2.5.0" || info.Folder != s.Folder {
		t.Fatalf("save the override: %+v %v", info, err)
	}
	if info, err = a.agents.InstallPreset("codex"); err != nil || !info.Available || info.Version != "2.5.0" || info.Preset.UpdateTo != "" {
		t.Fatalf("install: %+v %v", info, err)
	}
	if len(steps) != 2 || steps[1] != "codex: Installing @agentclientprotocol/codex-acp@2.5.0 with npm" {
		t.Fatalf("progress: %v", steps)
	}
	started, err := a.sessions.StartSession("codex", t.TempDir(), nil, false, false)
	if err != nil || started.AgentVersion != "2.5.0" {
		t.Fatalf("start: %+v %v", started, err)
	}
	back, _ := a.agents.GetPresetOverride("codex")
	if len(back.Env) != 1 || back.Env[0].Value != "" || !back.Env[0].IsSet {
		t.Fatalf("a secret read back: %+v", back.Env)
	}
	if info, err = a.agents.SavePresetOverride(AgentSettings{ID: "codex", Version: "2.5.0 --foo"}); err == nil {
		t.Fatalf("a version with an option was saved: %+v", info)
	}
	if info, err = a.agents.ResetPreset("codex"); err != nil || info.Preset.Overridden || info.Preset.Pinned != codex.Version ||
		info.Preset.UpdateTo != codex.Version || info.Version != "2.5.0" {
		t.Fatalf("reset: %+v %+v %v", info, info.Preset, err)
	}
	if a.catalog.IsSet("codex", "OPENAI_API_KEY") {
		t.Fatal("reset kept the override's secret")
	}
}
