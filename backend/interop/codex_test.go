package interop

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"agentdesk/backend/agents"
)

// codexID is the id the rig gives Codex (not the preset's: this one is the cached install).
const codexID = "interop-codex"

// codex is the installed Codex adapter with a CODEX_HOME of its own whose config.toml points it
// at the scripted Responses API at url, started in mode (one of codex-acp's modes). The model's
// name is one Codex has no metadata for: it then offers its classic function tools
// (exec_command…), which the script calls; its known models take their tools another way.
func codex(t *testing.T, wire *Tripwire, url, mode string) agents.Agent {
	t.Helper()
	in := installed(t, Pinned.Codex)
	home := t.TempDir()
	// CODEX_HOME outside TMPDIR: Codex does not create its sandbox helper under it.
	cache, err := CacheDir()
	if err != nil {
		t.Fatal(err)
	}
	codexHome, err := os.MkdirTemp(cache, "codex-home-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(codexHome) })
	config := fmt.Sprintf(`model = "scripted"
model_provider = "scripted"
# Nothing that phones home: no update check, no analytics, no plugins.
check_for_update_on_startup = false

[model_providers.scripted]
name = "scripted"
base_url = %s
wire_api = "responses"
requires_openai_auth = false
request_max_retries = 0
stream_max_retries = 0

[analytics]
enabled = false

[features]
plugins = false
`, strconv.Quote(url))
	if err := os.WriteFile(filepath.Join(codexHome, "config.toml"), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	// codex-acp starts in "agent" (a model reviews each request) unless told otherwise.
	env := append(baseEnv(home, wire), "CODEX_HOME="+codexHome, "INITIAL_AGENT_MODE="+mode)
	return agents.Agent{ID: codexID, Name: "Codex", Command: in.Command(), Available: true, Env: env, Version: in.Version}
}

// codexExec is the model's exec_command call of command. In the mode that asks it asks to
// leave the sandbox (require_escalated), which Codex puts to the person; full access refuses
// such a request ("approval policy is Never"), so there the call asks for nothing.
func codexExec(command string, asked bool) Answer {
	if !asked {
		return Call("exec_command", map[string]any{"cmd": command})
	}
	return Call("exec_command", map[string]any{"cmd": command, "sandbox_permissions": "require_escalated",
		"justification": "The scripted test runs this command."})
}

func init() {
	flavours = append(flavours, flavour{name: "codex", agent: codex,
		serve: func(s Script) (server, string) { o := NewOpenAI(s); return o, o.URL },
		ask:   "read-only", free: "agent-full-access",
		write: func(path, content string, asked bool) Answer {
			return codexExec("printf %s "+shellQuote(content)+" > "+shellQuote(path), asked)
		},
		run: codexExec,
	})
}

// shellQuote quotes s for the shell: single quotes, which keep everything (a newline too).
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
