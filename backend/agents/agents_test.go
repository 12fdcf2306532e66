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
	installed := binDir(t, "claude-agent-acp", "gemini")
	node := binDir(t, "npx")
	env := []string{"PATH=relative/dir:" + installed + ":" + node, "HOME=/home/me"}
	list := List("/opt/agentdesk", []string{"--pace", "1s"}, env)

	if d := list[0]; d.ID != DemoID || !d.Available || d.Command != "/opt/agentdesk" || !reflect.DeepEqual(d.Args, []string{"demo-agent", "--pace", "1s"}) {
		t.Errorf("demo agent %+v", d)
	}
	if c := find(t, list, "claude"); !c.Available || c.Command != filepath.Join(installed, "claude-agent-acp") || len(c.Args) != 0 {
		t.Errorf("claude, installed: %+v", c)
	}
	if g := find(t, list, "gemini"); g.Command != filepath.Join(installed, "gemini") || !reflect.DeepEqual(g.Args, []string{"--acp"}) {
		t.Errorf("gemini, installed: %+v", g)
	}
	c := find(t, list, "codex")
	if want := []string{"-y", "@agentclientprotocol/codex-acp@latest"}; !c.Available || c.Command != filepath.Join(node, "npx") || !reflect.DeepEqual(c.Args, want) {
		t.Errorf("codex through npx: %+v, want npx %v", c, want)
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

func TestPresetsWithoutNodeSaySo(t *testing.T) {
	list := List("/opt/agentdesk", nil, []string{"PATH=" + t.TempDir()})
	if c := find(t, list, "claude"); c.Available || !strings.Contains(c.Reason, "needs Node.js") {
		t.Errorf("claude without node: %+v", c)
	}
	if k := find(t, list, "kiro"); k.Available || !strings.Contains(k.Reason, `"kiro-cli" not found`) {
		t.Errorf("kiro: %+v", k)
	}
	if _, err := Find(list, "claude"); err == nil || !strings.Contains(err.Error(), "needs Node.js") {
		t.Errorf("Find of an unavailable agent: %v", err)
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
