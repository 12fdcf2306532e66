package interop

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"agentdesk/backend/agents"
)

// geminiID is the id the rig gives Gemini CLI.
const geminiID = "interop-gemini"

// geminiModel is the model Gemini CLI is set to: a fixed one, so that it asks no router which
// model a turn needs.
const geminiModel = "gemini-2.5-flash"

// gemini is the installed Gemini CLI (`gemini --acp`), set up in a home of its own to start in
// approval mode mode (general.defaultApprovalMode) and to talk to the scripted Gemini API at url
// (GOOGLE_GEMINI_BASE_URL) with a made-up key. Its login is set to "gemini-api-key": the base URL
// alone picks its "gateway" login, which its start-up check refuses (exit 41, "Invalid auth
// method selected."). Updates, usage statistics, telemetry and the IDE link are switched off.
func gemini(t *testing.T, wire *Tripwire, url, mode string) agents.Agent {
	t.Helper()
	in := installed(t, Pinned.Gemini)
	home := t.TempDir()
	cfg := filepath.Join(home, ".gemini")
	if err := os.MkdirAll(cfg, 0o700); err != nil {
		t.Fatal(err)
	}
	if mode == "autoEdit" {
		mode = "auto_edit" // the setting's word for the mode ACP calls autoEdit
	}
	settings, _ := json.Marshal(map[string]any{
		"general":   map[string]any{"defaultApprovalMode": mode, "enableAutoUpdate": false, "enableAutoUpdateNotification": false},
		"privacy":   map[string]any{"usageStatisticsEnabled": false},
		"telemetry": map[string]any{"enabled": false},
		"ide":       map[string]any{"enabled": false},
		"model":     map[string]any{"name": geminiModel},
		"security":  map[string]any{"auth": map[string]any{"selectedType": "gemini-api-key"}, "folderTrust": map[string]any{"enabled": false}},
	})
	if err := os.WriteFile(filepath.Join(cfg, "settings.json"), settings, 0o600); err != nil {
		t.Fatal(err)
	}
	env := append(baseEnv(home, wire), "GOOGLE_GEMINI_BASE_URL="+url, "GEMINI_API_KEY=interop-not-a-key",
		"GEMINI_TELEMETRY_ENABLED=false")
	return agents.Agent{ID: geminiID, Name: "Gemini CLI", Command: in.Command(), Args: in.Args, Available: true, Env: env, Version: in.Version}
}

func init() {
	flavours = append(flavours, flavour{name: "gemini", agent: gemini,
		serve: func(s Script) (server, string) { g := NewGemini(s); return g, g.URL },
		ask:   "default", free: "autoEdit", cacheless: true, settle: earlierMinute,
		write: func(path, content string, _ bool) Answer {
			return Call("write_file", map[string]any{"file_path": path, "content": content})
		},
		run: func(command string, _ bool) Answer {
			return Call("run_shell_command", map[string]any{"command": command, "description": "Run the scripted command"})
		},
		skip: map[string]string{
			"TestACommandsOutputAndExitCode": "Gemini CLI 0.61 runs commands itself and reports neither their output " +
				"(its display is a terminal screen, which its ACP layer drops) nor their exit code: the tool call completes",
			"TestAForkKeepsTheEarlierTurns":                       "Gemini CLI 0.61 offers no session/fork",
			"TestAPromptSteeredIntoTheRunningTurnReachesTheModel": "Gemini CLI 0.61 takes no prompt into a running turn (no steering)",
		},
	})
}

// earlierMinute moves Gemini CLI's session files of r's agent back to an earlier minute. Gemini
// CLI 0.61 names a session's file session-<minute>-<id prefix>.jsonl and a process that loads
// the session starts a new file for it; in the minute the session began that is the same file,
// rewritten (the turns lost, and session/load answers "No previous sessions found for this
// project"). A person continuing a session later never meets that; a test a second later does.
func earlierMinute(t *testing.T, r *rig) {
	t.Helper()
	chats, _ := filepath.Glob(filepath.Join(envOf(r.agent, "HOME"), ".gemini", "tmp", "*", "chats", "session-*.jsonl"))
	stamp := len("session-2006-01-02T15-04-")
	for _, p := range chats {
		if name := filepath.Base(p); len(name) > stamp {
			if err := os.Rename(p, filepath.Join(filepath.Dir(p), "session-2000-01-01T00-00-"+name[stamp:])); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// envOf is the value of key in agent's environment, "" when unset.
func envOf(agent agents.Agent, key string) string {
	for _, kv := range agent.Env {
		if k, v, ok := strings.Cut(kv, "="); ok && k == key {
			return v
		}
	}
	return ""
}
