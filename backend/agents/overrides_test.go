package agents

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// fakeInstalls is what is installed of the presets, for the catalog.
type fakeInstalls map[string]PresetInstall

func (f fakeInstalls) Installed(id string) PresetInstall { return f[id] }
func (f fakeInstalls) Check(string) error                { return nil }

func overrideCatalog(t *testing.T, env []string) (*Catalog, *FileSecrets, string) {
	t.Helper()
	dir := t.TempDir()
	secrets := &FileSecrets{Path: filepath.Join(dir, "secrets.json")}
	path := filepath.Join(dir, "agents.json")
	c := NewCatalog(List("/opt/agentdesk", nil, env), env, &ConfigFile{Path: path}, secrets)
	return c, secrets, path
}

func TestOverrideIsStoredAppliedAndReset(t *testing.T) {
	bin := binDir(t, "node", "gemini")
	env := []string{"PATH=" + bin, "HOME=/home/me"}
	c, secrets, path := overrideCatalog(t, env)
	inst := PresetInstall{Version: "0.61.0", Command: "/data/presets/gemini/0.61.0/node_modules/.bin/gemini"}
	c.SetPresetInstalls(fakeInstalls{"gemini": inst})
	const key = "g-secret-value-1234"
	o := Override{ID: "gemini", Args: []string{"--acp", "--model", "pro"}, Folder: "/work/project",
		Env: []EnvVar{{Name: "GEMINI_API_KEY", Secret: true}, {Name: "LEVEL", Value: "debug"}}}
	if _, err := c.SaveOverride(o, map[string]string{"GEMINI_API_KEY": key}); err != nil {
		t.Fatal(err)
	}
	// Stored like a custom agent: agents.json names the secret, the value is in the store only.
	raw, _ := os.ReadFile(path)
	if !strings.Contains(string(raw), `"overrides"`) || strings.Contains(string(raw), key) {
		t.Fatalf("agents.json:\n%s", raw)
	}
	if v, err := secrets.Get("gemini", "GEMINI_API_KEY"); err != nil || v != key {
		t.Fatalf("stored secret %q %v", v, err)
	}
	a, err := c.Find("gemini")
	if err != nil {
		t.Fatal(err)
	}
	if !a.Preset.Overridden || a.Command != inst.Command || !reflect.DeepEqual(a.Args, o.Args) || a.Folder != "/work/project" ||
		!slices.Contains(a.Env, "GEMINI_API_KEY="+key) || !slices.Contains(a.Env, "LEVEL=debug") {
		t.Fatalf("the override is not applied: %+v", a)
	}
	if c.Masker().Mask("key "+key) == "key "+key {
		t.Fatal("the override's secret is not masked")
	}
	// A reopened catalog reads it back.
	again := NewCatalog(List("/opt/agentdesk", nil, env), env, &ConfigFile{Path: path}, secrets)
	if got, ok := again.Override("gemini"); !ok || !reflect.DeepEqual(got.Args, o.Args) || got.Env[0].Value != "" {
		t.Fatalf("reopened: %+v %v", got, ok)
	}

	// The user's own command, chosen in the override, wins over the installed copy.
	if _, err := c.SaveOverride(Override{ID: "gemini", Command: "gemini", Env: o.Env}, nil); err != nil {
		t.Fatal(err)
	}
	a, _ = c.Find("gemini")
	if a.Command != filepath.Join(bin, "gemini") || !reflect.DeepEqual(a.Args, []string{"--acp"}) || a.Version != "" || !a.Preset.Own {
		t.Fatalf("own command: %+v", a)
	}

	if err := c.ResetOverride("gemini"); err != nil {
		t.Fatal(err)
	}
	a, _ = c.Find("gemini")
	if a.Preset.Overridden || a.Command != inst.Command || !reflect.DeepEqual(a.Args, []string{"--acp"}) || a.Folder != "" {
		t.Fatalf("after reset: %+v", a)
	}
	if _, err := secrets.Get("gemini", "GEMINI_API_KEY"); err == nil {
		t.Fatal("reset kept the override's secret")
	}
	if err := c.ResetOverride("gemini"); err != nil {
		t.Fatalf("a second reset: %v", err)
	}
}

func TestResetKeepsALoginSecret(t *testing.T) {
	c, secrets, _ := overrideCatalog(t, []string{"PATH=" + binDir(t, "node")})
	if err := c.SetLoginSecrets("claude", map[string]string{"ANTHROPIC_API_KEY": "sk-login-123456"}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.SaveOverride(Override{ID: "claude", Env: []EnvVar{{Name: "ANTHROPIC_API_KEY", Secret: true}}}, nil); err != nil {
		t.Fatal(err)
	}
	if err := c.ResetOverride("claude"); err != nil {
		t.Fatal(err)
	}
	if v, err := secrets.Get("claude", "ANTHROPIC_API_KEY"); err != nil || v != "sk-login-123456" {
		t.Fatalf("reset deleted the login's secret: %q %v", v, err)
	}
}

func TestOverridesAreValidated(t *testing.T) {
	c, _, _ := overrideCatalog(t, nil)
	for _, tc := range []struct {
		o    Override
		want string
	}{
		{Override{ID: "gemini", Version: "../x"}, "not an exact version"},
		{Override{ID: "gemini", Version: "1.0.0 --foo"}, "not an exact version"},
		{Override{ID: "gemini", Version: "latest"}, "not an exact version"},
		{Override{ID: "gemini", Version: "--registry=http://evil"}, "not an exact version"},
		{Override{ID: "goose", Version: "1.0.0"}, "no package"},
		{Override{ID: "my-agent"}, "not a preset"},
		{Override{ID: "gemini", Command: "bin/gemini"}, "absolute path"},
		{Override{ID: "gemini", Folder: "relative"}, "absolute path"},
		{Override{ID: "gemini", Env: []EnvVar{{Name: "A B"}}}, "not an environment variable name"},
		{Override{ID: "gemini", Env: []EnvVar{{Name: "TOKEN", Secret: true}}}, "give a value for the secret TOKEN"},
	} {
		if _, err := c.SaveOverride(tc.o, nil); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want %q", tc.o, err, tc.want)
		}
	}
	if _, ok := c.Override("gemini"); ok {
		t.Fatal("a refused override was stored")
	}
	if _, err := c.SaveOverride(Override{ID: "gemini", Version: "0.62.0-preview.1"}, nil); err != nil {
		t.Fatalf("an exact pre-release version: %v", err)
	}
}
