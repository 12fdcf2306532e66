package agents

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// binDir makes a folder of fake executables (and one non-executable file).
func binDir(t *testing.T, names ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "goose"), []byte("not executable"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func find(t *testing.T, list []Agent, id string) Agent {
	t.Helper()
	for _, a := range list {
		if a.ID == id {
			return a
		}
	}
	t.Fatalf("no agent %q in the list", id)
	return Agent{}
}

func TestPresetsResolveOnTheGivenPath(t *testing.T) {
	installed := binDir(t, "claude-agent-acp", "kiro-cli")
	node := binDir(t, "npx", "node")
	env := []string{"PATH=relative/dir:" + installed + ":" + node, "HOME=/home/me"}
	list := List("/opt/agentdesk", []string{"--pace", "1s"}, env)

	if d := list[0]; d.ID != DemoID || !d.Available || d.Command != "/opt/agentdesk" || !reflect.DeepEqual(d.Args, []string{"demo-agent", "--pace", "1s"}) {
		t.Errorf("demo agent %+v", d)
	}
	// A preset with a package runs only its installed copy: not installed, it says how to
	// install it (and that its own command is there to choose), and never falls back to npx.
	c := find(t, list, "claude")
	if c.Available || !c.Preset.Installable || c.Preset.Pinned != "0.101.0" || c.Preset.OwnFound != filepath.Join(installed, "claude-agent-acp") ||
		!strings.Contains(c.Reason, "agentdesk agents install claude") || strings.Contains(c.Command, "npx") {
		t.Errorf("claude, not installed: %+v %+v", c, c.Preset)
	}
	if x := find(t, list, "codex"); x.Available || x.Preset.OwnFound != "" || strings.Contains(x.Reason, "your own") {
		t.Errorf("codex, not installed and not on PATH: %+v", x)
	}
	if k := find(t, list, "kiro"); !k.Available || k.Command != filepath.Join(installed, "kiro-cli") || !k.Preset.Own || k.Preset.Package != "" {
		t.Errorf("kiro (no package: its own command): %+v", k)
	}
	if g := find(t, list, "goose"); g.Available || !strings.Contains(g.Reason, `"goose" not found`) {
		t.Errorf("goose (a non-executable file on PATH): %+v", g)
	}
	for _, a := range list {
		if !reflect.DeepEqual(a.Env, env) {
			t.Errorf("%s does not start with the given environment", a.ID)
		}
	}
}

func TestInstalledPresetNeedsNode(t *testing.T) {
	p, _ := PresetByID("gemini")
	in := PresetInstall{Version: "0.61.0", Command: "/data/presets/gemini/0.61.0/node_modules/.bin/gemini"}
	a := p.Resolve([]string{"PATH=" + t.TempDir()}, Override{}, in)
	if a.Available || !strings.Contains(a.Reason, "needs Node.js") || a.Version != "0.61.0" {
		t.Errorf("gemini installed, without node: %+v", a)
	}
	if _, err := Find([]Agent{a}, "gemini"); err == nil || !strings.Contains(err.Error(), "needs Node.js") {
		t.Errorf("Find of an unavailable agent: %v", err)
	}
	a = p.Resolve([]string{"PATH=" + binDir(t, "node")}, Override{}, in)
	if !a.Available || a.Command != in.Command || !reflect.DeepEqual(a.Args, []string{"--acp"}) {
		t.Errorf("gemini installed: %+v", a)
	}
}

func TestLookPathSkipsRelativeEntries(t *testing.T) {
	dir := binDir(t, "tool")
	t.Chdir(dir)
	if _, err := LookPath("tool", ".:relative"); err == nil {
		t.Error("found a command through a relative PATH entry")
	}
	if p, err := LookPath(filepath.Join(dir, "tool"), ""); err != nil || p != filepath.Join(dir, "tool") {
		t.Errorf("a path with a slash: %q, %v", p, err)
	}
}
