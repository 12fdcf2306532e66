package interop

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"agentdesk/backend/agents"
)

// opencodeID is the id the rig gives opencode.
const opencodeID = "interop-opencode"

// opencode is the installed opencode (`opencode acp`), set up in a home of its own: its config
// (XDG_CONFIG_HOME/opencode/opencode.json) has one provider, the scripted Chat Completions API
// at url (@ai-sdk/openai-compatible, a made-up key), asks before edits and commands, adds a
// primary agent "free" that asks nothing, and starts in agent mode. Updates, sharing, the
// models.dev catalog, default plugins and LSP downloads are switched off.
func opencode(t *testing.T, wire *Tripwire, url, mode string) agents.Agent {
	t.Helper()
	in := installed(t, Pinned.Opencode)
	home := t.TempDir()
	// opencode installs @opencode-ai/plugin from npm into its config folder (for custom tools,
	// which the suite has none of) unless that folder has node_modules and a lock file that
	// lists it: it is given them, as an earlier install would have left them.
	cfg := filepath.Join(home, ".config", "opencode")
	if err := os.MkdirAll(filepath.Join(cfg, "node_modules"), 0o700); err != nil {
		t.Fatal(err)
	}
	lock := `{"lockfileVersion":3,"packages":{"":{"dependencies":{"@opencode-ai/plugin":"*"}}}}`
	if err := os.WriteFile(filepath.Join(cfg, "package-lock.json"), []byte(lock), 0o600); err != nil {
		t.Fatal(err)
	}
	config, _ := json.Marshal(map[string]any{
		"$schema": "https://opencode.ai/config.json",
		"model":   "scripted/scripted-model", "small_model": "scripted/scripted-model",
		"default_agent": mode, "autoupdate": false, "share": "disabled",
		"permission": map[string]any{"edit": "ask", "bash": "ask"},
		"agent": map[string]any{"free": map[string]any{"mode": "primary", "description": "Asks nothing",
			"permission": map[string]any{"edit": "allow", "bash": "allow"}}},
		"provider": map[string]any{"scripted": map[string]any{
			"npm": "@ai-sdk/openai-compatible", "name": "Scripted",
			"options": map[string]any{"baseURL": url, "apiKey": "interop-not-a-key"},
			"models": map[string]any{"scripted-model": map[string]any{"name": "Scripted model", "tool_call": true,
				"cost": map[string]any{"input": 3, "output": 15}, "limit": map[string]any{"context": 200000, "output": 8192}}},
		}},
	})
	file := filepath.Join(home, "opencode-interop.json")
	if err := os.WriteFile(file, config, 0o600); err != nil {
		t.Fatal(err)
	}
	env := append(baseEnv(home, wire), "OPENCODE_CONFIG="+file, "OPENCODE_DISABLE_AUTOUPDATE=1", "OPENCODE_DISABLE_MODELS_FETCH=1",
		"OPENCODE_DISABLE_DEFAULT_PLUGINS=1", "OPENCODE_DISABLE_LSP_DOWNLOAD=1", "OPENCODE_DISABLE_SHARE=1",
		"OPENCODE_DISABLE_CLAUDE_CODE=1", "OPENCODE_DISABLE_EXTERNAL_SKILLS=1")
	return agents.Agent{ID: opencodeID, Name: "opencode", Command: in.Command(), Args: in.Args, Available: true, Env: env, Version: in.Version}
}

func init() {
	flavours = append(flavours, flavour{name: "opencode", agent: opencode,
		serve: func(s Script) (server, string) { c := NewChatCompletions(s); return c, c.URL },
		ask:   "build", free: "free", priced: true,
		write: func(path, content string, _ bool) Answer {
			return Call("write", map[string]any{"filePath": path, "content": content})
		},
		run: func(command string, _ bool) Answer {
			return Call("bash", map[string]any{"command": command, "description": "Run the scripted command"})
		},
		skip: map[string]string{
			"TestAPromptSteeredIntoTheRunningTurnReachesTheModel": "opencode 1.18 takes no prompt into a running turn (no steering)",
		},
	})
}
