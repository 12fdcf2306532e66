package interop

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"agentdesk/backend/agents"
)

// claudeID is the id the rig gives Claude Code (not the preset's: this one is the cached install).
const claudeID = "interop-claude"

// claude is the installed Claude Code adapter, set up to start in permission mode mode
// (permissions.defaultMode in the settings of a config folder of its own) and to talk to the
// scripted Anthropic API at url. Its key is a made-up one: nothing but the script answers it.
func claude(t *testing.T, wire *Tripwire, url, mode string) agents.Agent {
	t.Helper()
	in := installed(t, Pinned.Claude)
	home := t.TempDir()
	cfg := filepath.Join(home, ".claude")
	if err := os.MkdirAll(cfg, 0o700); err != nil {
		t.Fatal(err)
	}
	settings, _ := json.Marshal(map[string]any{"permissions": map[string]any{"defaultMode": mode}})
	if err := os.WriteFile(filepath.Join(cfg, "settings.json"), settings, 0o600); err != nil {
		t.Fatal(err)
	}
	env := append(baseEnv(home, wire), "ANTHROPIC_BASE_URL="+url, "ANTHROPIC_API_KEY=sk-ant-interop-not-a-key",
		"CLAUDE_CONFIG_DIR="+cfg,
		// What Claude Code would otherwise reach on its own: telemetry, error reports, updates.
		"DISABLE_TELEMETRY=1", "DISABLE_ERROR_REPORTING=1", "DISABLE_AUTOUPDATER=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1")
	if os.Geteuid() == 0 {
		// As root, Claude Code refuses to start a session in any mode (bypass_root) unless it
		// is told it runs in a sandbox (docs/acp.md): CI runs as root in a throwaway container.
		env = append(env, "IS_SANDBOX=1")
	}
	return agents.Agent{ID: claudeID, Name: "Claude Code", Command: in.Command(), Available: true, Env: env, Version: in.Version}
}

func init() {
	flavours = append(flavours, flavour{name: "claude", agent: claude,
		serve: func(s Script) (server, string) { a := NewAnthropic(s); return a, a.URL },
		ask:   "default", free: "acceptEdits", priced: true,
		write: func(path, content string, _ bool) Answer {
			return Call("Write", map[string]any{"file_path": path, "content": content})
		},
		run: func(command string, _ bool) Answer {
			return Call("Bash", map[string]any{"command": command, "description": "Run the scripted command"})
		},
	})
}
