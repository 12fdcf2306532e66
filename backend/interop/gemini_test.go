package interop

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"agentdesk/backend/acp"
	"agentdesk/backend/agents"
	"agentdesk/backend/hub"
)

// geminiID is the id the rig gives Gemini CLI.
const geminiID = "interop-gemini"

// geminiModel is the model Gemini CLI is set to: a fixed one, so that it asks no router which
// model a turn needs.
const geminiModel = "gemini-2.5-flash"

// gemini is the installed Gemini CLI (`gemini --acp`), set up in a home of its own to start in
// approval mode mode (general.defaultApprovalMode) and to talk to the scripted Gemini API at
// url (GOOGLE_GEMINI_BASE_URL, which picks its "gateway" login; the key is a made-up one).
// Updates, usage statistics and telemetry are switched off in its settings.
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
		ask:   "default", free: "autoEdit", cacheless: true,
		write: func(path, content string, _ bool) Answer {
			return Call("write_file", map[string]any{"file_path": path, "content": content})
		},
		run: func(command string, _ bool) Answer {
			return Call("run_shell_command", map[string]any{"command": command, "description": "Run the scripted command"})
		},
		existing: "Gemini CLI 0.61 reads a file through fs/read_text_file before writing it and takes the " +
			"-32002 answer for a missing one as a failure (\"Error checking existing file\"): it cannot create one",
		skip: map[string]string{
			"TestACommandsOutputAndExitCode": "Gemini CLI 0.61 runs commands itself and reports neither their output " +
				"(its display is a terminal screen, which its ACP layer drops) nor their exit code: the tool call completes",
			"TestAForkKeepsTheEarlierTurns":                       "Gemini CLI 0.61 offers no session/fork",
			"TestAPromptSteeredIntoTheRunningTurnReachesTheModel": "Gemini CLI 0.61 takes no prompt into a running turn (no steering)",
			"TestAContinuedSessionRemembers": "Gemini CLI 0.61 names a session's file by the minute: a session/load in the " +
				"minute the session began rewrites that file and fails (TestGeminiLoadsASessionOfAnEarlierMinute)",
		},
	})
}

// TestGeminiLoadsASessionOfAnEarlierMinute: a Gemini session closed and continued loads
// (session/load): the earlier turn replays and reaches the model's context. Gemini CLI 0.61
// names a session's file session-<minute>-<id prefix>.jsonl and a loading process starts a new
// file for the same session; in the minute the session began that is the same file, rewritten
// (the turns lost, "No previous sessions found for this project"). The test moves the file to an
// earlier minute, as time does for a session continued later.
func TestGeminiLoadsASessionOfAnEarlierMinute(t *testing.T) {
	each(t, func(t *testing.T, f flavour, wire *Tripwire) {
		if f.name != "gemini" {
			t.Skip("Gemini CLI's own session files")
		}
		r, srv := scripted(t, f, wire, f.ask, func(_ string, a Ask) Answer {
			if strings.Contains(a.Prompt, "which word") {
				return Say("You asked me to remember a word.")
			}
			return Say("Noted.")
		})
		s := r.start()
		r.turn(s, "remember the word kumquat", "")
		ctx := context.Background()
		id := s.ID()
		if err := r.core.Hub.Close(ctx, id); err != nil {
			t.Fatal(err)
		}
		chats, _ := filepath.Glob(filepath.Join(envOf(r.agent, "HOME"), ".gemini", "tmp", "*", "chats", "session-*.jsonl"))
		for _, p := range chats {
			name := filepath.Base(p) // session-2026-12-07T14-31-611d71bd.jsonl
			if len(name) < len("session-2006-01-02T15-04-") {
				continue
			}
			earlier := "session-2000-01-01T00-00-" + name[len("session-2006-01-02T15-04-"):]
			if err := os.Rename(p, filepath.Join(filepath.Dir(p), earlier)); err != nil {
				t.Fatal(err)
			}
		}
		s, _, err := r.core.Hub.ContinueSaved(ctx, hub.ContinueRequest{SessionID: id, RawEvents: true}, r.listen())
		if err != nil {
			t.Fatal(err)
		}
		r.idle(s)
		if end := r.turn(s, "which word was it?", ""); end.StopReason != "end_turn" {
			t.Fatalf("the continued turn ended %q:\n%s", end.StopReason, dump(s))
		}
		seen := srv.Seen()
		if last := seen[len(seen)-1]; !strings.Contains(string(last.Body), "kumquat") {
			t.Errorf("the continued turn's model request does not hold the earlier turn:\n%s", srv.Summary())
		}
		var boundary *acp.Boundary
		for _, e := range s.Snapshot().Entries {
			if e.Kind == acp.KindBoundary {
				boundary = e.Boundary
			}
		}
		if boundary == nil || boundary.Kind != acp.BoundaryReplayed {
			t.Errorf("continued as %+v, want the agent's own load", boundary)
		}
	})
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
