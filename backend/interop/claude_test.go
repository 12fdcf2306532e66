package interop

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"agentdesk/backend/acp"
	"agentdesk/backend/agents"
	"agentdesk/backend/hub"
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

// TestClaudesAutoModeAsksItsClassifierNotThePerson: in Claude Code's "auto" mode (its default
// when settings name none) no permission reaches agentdesk: the agent asks the model API itself
// (a "security monitor" prompt wanting <severity>N</severity>) and runs the command when the
// verdict is harmless, or blocks it — without asking anyone — when the verdict cannot be read.
func TestClaudesAutoModeAsksItsClassifierNotThePerson(t *testing.T) {
	for _, c := range []struct {
		name, verdict string
		runs          bool
	}{{"harmless", "<severity>0</severity>", true}, {"unreadable", "no idea", false}} {
		t.Run(c.name, func(t *testing.T) {
			wire, err := NewTripwire()
			if err != nil {
				t.Fatal(err)
			}
			defer wire.Close()
			var asked atomic.Int32
			srv := NewAnthropic(func(a Ask) Answer {
				switch {
				case strings.Contains(a.System, "security monitor"):
					asked.Add(1)
					return Say(c.verdict)
				case a.Side:
					return Say("Interop session")
				case a.HasResult:
					return Say("Done.")
				}
				return Call("Bash", map[string]any{"command": "echo ran > ran.txt; exit 3", "description": "Write ran.txt"})
			})
			defer srv.Close()
			r := newRig(t, claude(t, wire, srv.URL, "auto"), wire)
			s := r.start()
			if mode := s.Snapshot().Controls.Modes.CurrentModeID; mode != "auto" {
				t.Fatalf("the session is in %q, want auto", mode)
			}
			end := r.turn(s, "write ran.txt", "") // a permission request fails the test
			_, statErr := os.Stat(filepath.Join(r.dir, "ran.txt"))
			if asked.Load() == 0 || len(end.Receipt.Decisions) != 0 || (statErr == nil) != c.runs {
				t.Fatalf("classifier asked %d times, decisions %+v, ran.txt: %v; want it asked, no decision, run %v\n%s",
					asked.Load(), end.Receipt.Decisions, statErr, c.runs, srv.Summary())
			}
			if cmds := end.Receipt.Commands; c.runs && (len(cmds) != 1 || cmds[0].ExitCode == nil || *cmds[0].ExitCode != 3) {
				t.Errorf("the receipt's commands are %+v, want one that exited 3", cmds)
			}
			noEscape(t, wire)
		})
	}
}

// TestClaudeAsRoot: as root Claude Code opens a session without IS_SANDBOX (bypass is not
// offered) and with IS_SANDBOX=1 (it is); with IS_SANDBOX set to anything else its adapter offers
// the bypass its CLI refuses, and it refuses to open a session at all, in any mode
// ("bypass_root"): agentdesk's failed start says what to do.
func TestClaudeAsRoot(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("only root is refused")
	}
	for _, c := range []struct {
		name, env string
		starts    bool
		bypass    bool
	}{{"without IS_SANDBOX", "", true, false}, {"IS_SANDBOX=1", "IS_SANDBOX=1", true, true}, {"IS_SANDBOX=yes", "IS_SANDBOX=yes", false, false}} {
		t.Run(c.name, func(t *testing.T) {
			wire, err := NewTripwire()
			if err != nil {
				t.Fatal(err)
			}
			defer wire.Close()
			srv := NewAnthropic(func(Ask) Answer { return Say("unused") })
			defer srv.Close()
			agent := claude(t, wire, srv.URL, "default")
			if c.env != "" {
				agent.Env = append(agent.Env, c.env)
			}
			r := newRig(t, agent, wire)
			s, _, err := r.core.Hub.Start(hub.StartRequest{AgentID: agent.ID, Cwd: r.dir, RawEvents: true}, r.listen())
			if err != nil {
				t.Fatal(err)
			}
			ev := r.await("the start's end", func(ev acp.Event) bool {
				return ev.Kind == acp.EventState && (ev.State == acp.StateFailed || ev.State == acp.StateIdle)
			})
			if !c.starts {
				if ev.State != acp.StateFailed || !strings.Contains(ev.Message, "root") || !strings.Contains(ev.Message, "IS_SANDBOX") {
					t.Fatalf("state %s: %q; want a failed start that says what to do", ev.State, ev.Message)
				}
				return
			}
			if ev.State != acp.StateIdle {
				t.Fatalf("state %s: %q, want the session open", ev.State, ev.Message)
			}
			if modes := modeIDs(s.Snapshot().Controls.Modes); slices.Contains(modes, "bypassPermissions") != c.bypass {
				t.Errorf("modes %v; bypass offered: want %v", modes, c.bypass)
			}
			noEscape(t, wire)
		})
	}
}
