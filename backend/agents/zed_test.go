package agents

import (
	"reflect"
	"strings"
	"testing"

	"agentdesk/backend/acp/schema"
)

// A whole Zed settings.json, as Zed writes and users edit it: comments, trailing commas, other
// settings around agent_servers, and built-in agents configured without a command.
const zedSettings = `// Zed settings
{
  "theme": "One Dark",
  "agent_servers": {
    "My Agent": {
      "command": "/usr/local/bin/my-agent",
      "args": ["--acp", "--verbose",],
      "env": { "MY_AGENT_API_KEY": "sk-zed-123456", "LOG_LEVEL": "debug", }, // keys are secrets
    },
    "claude": { "default_mode": "plan" },
    "Old Style": { "path": "old-agent", "args": [] },
    "Broken": { "command": "rel/agent" },
  },
}`

func TestZedSettingsImport(t *testing.T) {
	got, err := ParseZed(zedSettings)
	if err != nil {
		t.Fatal(err)
	}
	want := []Custom{
		{ID: "my-agent", Name: "My Agent", Command: "/usr/local/bin/my-agent", Args: []string{"--acp", "--verbose"},
			Env: []EnvVar{{Name: "LOG_LEVEL", Value: "debug"}, {Name: "MY_AGENT_API_KEY", Secret: true}}},
		{ID: "old-style", Name: "Old Style", Command: "old-agent", Args: []string{}},
	}
	if !reflect.DeepEqual(got.Agents, want) {
		t.Fatalf("agents:\n got %+v\nwant %+v", got.Agents, want)
	}
	if got.Secrets["my-agent"]["MY_AGENT_API_KEY"] != "sk-zed-123456" {
		t.Fatalf("secrets %v", got.Secrets)
	}
	skipped := strings.Join(got.Skipped, "\n")
	if !strings.Contains(skipped, "claude: no command") || !strings.Contains(skipped, "Broken:") || len(got.Skipped) != 2 {
		t.Fatalf("skipped:\n%s", skipped)
	}
}

func TestZedImportAcceptsJustTheAgentServers(t *testing.T) {
	got, err := ParseZed(`{"agent_servers": {"Gemini": {"command": "gemini", "args": ["--acp"]}}}`)
	if err != nil || len(got.Agents) != 1 || got.Agents[0].ID != "gemini-zed" {
		t.Fatalf("%+v, %v: want one agent whose id does not take the preset's", got, err)
	}
	for _, bad := range []string{`{"theme": "x"}`, `not json`, `{"agent_servers": 3}`} {
		if _, err := ParseZed(bad); err == nil {
			t.Errorf("ParseZed(%q) accepted it", bad)
		}
	}
}

// Zed's context_servers come along as MCP servers for every agent: commands (also the older
// {path, args, env}), remote servers with their headers, credentials kept apart as secrets;
// extension servers and invalid ones are skipped with the reason.
func TestZedContextServersImport(t *testing.T) {
	got, err := ParseZed(`{
  "context_servers": {
    "github": { "url": "https://api.example.com/mcp", "headers": { "Authorization": "Bearer gh-123456789" } },
    "fs": { "command": "mcp-fs", "args": ["/src"], "env": { "FS_TOKEN": "tok-123456789", "MODE": "ro" } },
    "legacy": { "command": { "path": "/opt/mcp/old", "args": ["-v"], "env": {} }, "enabled": false },
    "from-extension": { "settings": { "x": 1 } },
    "ftp": { "url": "ftp://example.com" },
  },
}`)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Agents) != 0 || len(got.MCPServers) != 3 {
		t.Fatalf("servers %+v", got.MCPServers)
	}
	fs, gh, legacy := got.MCPServers[0], got.MCPServers[1], got.MCPServers[2]
	if fs.Transport != schema.MCPStdio || fs.Command != "mcp-fs" || !reflect.DeepEqual(fs.Env, []EnvVar{{Name: "FS_TOKEN", Secret: true}, {Name: "MODE", Value: "ro"}}) {
		t.Errorf("fs %+v", fs)
	}
	if gh.Transport != schema.MCPHTTP || gh.URL != "https://api.example.com/mcp" || !gh.Headers[0].Secret || gh.Headers[0].Value != "" {
		t.Errorf("github %+v", gh)
	}
	if legacy.Command != "/opt/mcp/old" || !legacy.Disabled || !reflect.DeepEqual(legacy.Args, []string{"-v"}) {
		t.Errorf("legacy %+v", legacy)
	}
	if got.MCPSecrets["github"]["Authorization"] != "Bearer gh-123456789" || got.MCPSecrets["fs"]["FS_TOKEN"] != "tok-123456789" {
		t.Errorf("secrets %v", got.MCPSecrets)
	}
	skipped := strings.Join(got.Skipped, "\n")
	if !strings.Contains(skipped, "from-extension: no command or url") || !strings.Contains(skipped, `"ftp://example.com" is not an http or https URL`) {
		t.Errorf("skipped:\n%s", skipped)
	}
}
