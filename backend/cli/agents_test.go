package cli

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"

	"agentdesk/backend/agents"
	"agentdesk/backend/registry/npmtest"
)

func TestAgentsInstallRunUpdateResetAPreset(t *testing.T) {
	if _, err := exec.LookPath("npm"); err != nil {
		t.Skip("npm is not installed")
	}
	isolatedConfig(t)
	claude, _ := agents.PresetByID("claude")
	npm := npmtest.New(t, npmtest.Package{Name: claude.Package, Bin: claude.Bin, Script: npmtest.DemoScript}, "1.0.0", "1.1.0", claude.Version)
	npm.Setenv(t)
	ag := func(args ...string) (int, string, string) {
		var out, errOut bytes.Buffer
		code := execute(strings.NewReader(""), &out, &errOut, append([]string{"agents"}, args...)...)
		return code, out.String(), errOut.String()
	}
	row := func(table, id string) string {
		for _, l := range strings.Split(table, "\n") {
			if strings.HasPrefix(l, id+" ") {
				return l
			}
		}
		t.Fatalf("no row %s in\n%s", id, table)
		return ""
	}
	if _, out, _ := ag(); !strings.Contains(row(out, "claude"), "no: not installed: `agentdesk agents install claude` installs @agentclientprotocol/claude-agent-acp 0.101.0") {
		t.Fatalf("before the install:\n%s", out)
	}
	// The fixture's 0.101.0 is not the tarball agentdesk pins: refused, nothing installed.
	if code, _, errOut := ag("install", "claude"); code != ExitFailed || !strings.Contains(errOut, "integrity") {
		t.Fatalf("install of a tarball other than the pinned one: %d\n%s", code, errOut)
	}
	if code, _, errOut := ag("install", "claude", "--version", "1.0.0 --foo"); code != ExitFailed || !strings.Contains(errOut, "not an exact version") {
		t.Fatalf("a version with an option: %d %s", code, errOut)
	}
	if code, out, errOut := ag("install", "claude", "--version", "1.0.0"); code != ExitOK ||
		!strings.Contains(out, "Installed Claude Code 1.0.0 (@agentclientprotocol/claude-agent-acp@1.0.0): agentdesk run --agent claude") ||
		!strings.Contains(errOut, "claude: Installing @agentclientprotocol/claude-agent-acp@1.0.0 with npm") {
		t.Fatalf("install: %d\n%s\n%s", code, out, errOut)
	}
	_, out, _ := ag()
	if r := row(out, "claude"); !strings.Contains(r, " 1.0.0 ") || !strings.Contains(r, "update to 0.101.0") ||
		!strings.Contains(r, "/presets/claude/1.0.0/node_modules/.bin/claude-agent-acp") || strings.Contains(r, "npx") || strings.Contains(r, "@latest") {
		t.Fatalf("installed row: %s", r)
	}
	var runOut, runErr bytes.Buffer
	if code := runCLI([]string{"--agent", "claude", "--permissions", "allow", "--cwd", t.TempDir(), "hello"}, strings.NewReader(""), &runOut, &runErr); code != ExitOK {
		t.Fatalf("run the installed preset: %d\n%s\n%s", code, runOut.String(), runErr.String())
	}
	if code, out, _ := ag("update", "claude", "--version", "1.1.0"); code != ExitOK || !strings.Contains(out, "Updated Claude Code from 1.0.0 to 1.1.0 (1.0.0 kept: agentdesk agents rollback claude)") {
		t.Fatalf("update: %d %s", code, out)
	}

	cat, _ := agents.OpenCatalog(nil, nil)
	if _, err := cat.SaveOverride(agents.Override{ID: "claude", Args: []string{"--verbose"}}, nil); err != nil {
		t.Fatal(err)
	}
	_, out, _ = ag()
	if r := row(out, "claude"); !strings.Contains(r, "preset, overridden") || !strings.HasSuffix(strings.TrimSpace(r), "claude-agent-acp --verbose") {
		t.Fatalf("overridden row: %s", r)
	}
	var list []agents.Agent
	_, out, _ = ag("--json")
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatal(err)
	}
	for _, a := range list {
		if a.ID == "claude" && (a.Version != "1.1.0" || a.Preset == nil || !a.Preset.Overridden || a.Preset.Pinned != claude.Version) {
			t.Fatalf("claude in --json: %+v %+v", a, a.Preset)
		}
	}
	if code, out, _ := ag("reset", "claude"); code != ExitOK || !strings.Contains(out, "Reset Claude Code") {
		t.Fatalf("reset: %d %s", code, out)
	}
	if _, out, _ := ag(); strings.Contains(row(out, "claude"), "overridden") {
		t.Fatalf("after reset:\n%s", out)
	}
	if code, _, errOut := ag("install", "goose"); code != ExitFailed || !strings.Contains(errOut, "no package") {
		t.Fatalf("install of a preset without a package: %d %s", code, errOut)
	}
}
