package agents

import (
	"reflect"
	"strings"
	"testing"
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
