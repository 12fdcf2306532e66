package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/schema"
	"agentdesk/backend/export"
)

// fakeTerminal puts an x-terminal-emulator first on PATH that runs its command with no input
// (so the window's "press Enter" ends at once) and records how it was called.
func fakeTerminal(t *testing.T) (argsFile string) {
	t.Helper()
	bin := t.TempDir()
	argsFile = filepath.Join(bin, "args")
	script := "#!/bin/sh\nprintf '%s\\n' \"$@\" > " + argsFile + "\n[ \"$1\" = -e ] && shift\nexec \"$@\" </dev/null >/dev/null\n"
	if err := os.WriteFile(filepath.Join(bin, "x-terminal-emulator"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	return argsFile
}

// Each auth method type, from the failed start the page sees to the retried start, against
// the login agent (a real process; see app_loginagent_test.go).
func TestEachAuthMethodTypeLogsInAndRetries(t *testing.T) {
	isolatedConfig(t)
	argsFile := fakeTerminal(t)
	a, rec := newTestApp(t)
	state := saveLoginAgent(t, a, "tok-secret-9876")
	cwd := t.TempDir()
	failedStart := func() AuthPrompt {
		t.Helper()
		_ = os.Remove(state) // logged out
		info, st := startAndWait(t, rec, func() (SessionInfo, error) { return a.sessions.StartSession("acme", cwd, nil, false, false) })
		if st != acp.StateFailed {
			t.Fatalf("a logged-out start: %s, want failed", st)
		}
		p, err := a.logins.SessionAuth(info.SessionID)
		if err != nil || len(p.Methods) != 3 || p.AgentID != "acme" || !strings.Contains(p.Message, "log in to Acme") {
			t.Fatalf("SessionAuth: %+v, %v", p, err)
		}
		return p
	}

	t.Run("agent", func(t *testing.T) {
		p := failedStart()
		if m := p.Methods[0]; m.Type != "agent" || m.Description != "Opens acme.example in your browser" {
			t.Fatalf("agent method %+v", m)
		}
		_, st := startAndWait(t, rec, func() (SessionInfo, error) { return a.logins.StartSessionWithAuth(p.SessionID, "browser", nil) })
		if how, _ := os.ReadFile(state); st != acp.StateIdle || string(how) != "browser" {
			t.Fatalf("after the browser login: %s, state file %q", st, how)
		}
		// The failed attempt was a step, not history: it is neither live nor saved.
		if _, err := a.hub.Session(p.SessionID); err == nil {
			t.Fatal("the failed attempt is still live after the login")
		}
		if _, err := a.history.OpenHistory(p.SessionID); err == nil {
			t.Fatal("the failed attempt is still in the history after the login")
		}
	})

	t.Run("env_var", func(t *testing.T) {
		p := failedStart()
		m := p.Methods[1]
		if m.Type != "env_var" || m.Link != "https://acme.example/keys" || len(m.Vars) != 1 || !m.Vars[0].Secret || m.Vars[0].IsSet || m.Vars[0].Label != "Acme API key" {
			t.Fatalf("env_var method %+v", m)
		}
		if _, err := a.logins.StartSessionWithAuth(p.SessionID, "api-key", map[string]string{}); err == nil || !strings.Contains(err.Error(), "Acme API key (ACME_API_KEY)") {
			t.Fatalf("no value: %v", err)
		}
		const key = "key-abcdef-1234"
		info, st := startAndWait(t, rec, func() (SessionInfo, error) {
			return a.logins.StartSessionWithAuth(p.SessionID, "api-key", map[string]string{"ACME_API_KEY": key})
		})
		if st != acp.StateIdle {
			t.Fatalf("after the key: %s", st)
		}
		// The key is a secret of the agent now: stored, set, and masked where it leaves.
		if again := failedStart(); !again.Methods[1].Vars[0].IsSet {
			t.Fatal("the stored key is not shown as set")
		}
		if err := a.sessions.Prompt(info.SessionID, "echo"); err != nil {
			t.Fatal(err)
		}
		rec.waitFor(t, func(e acp.Event) bool { return e.SessionID == info.SessionID && e.Kind == acp.EventTurnEnd })
		md, _ := a.history.ExportHistory(info.SessionID, export.Markdown)
		if strings.Contains(md, key) || !strings.Contains(md, "key=••••••") {
			t.Fatalf("the login's key is not masked in the export:\n%s", md)
		}
	})

	t.Run("terminal", func(t *testing.T) {
		p := failedStart()
		m := p.Methods[2]
		self, _ := filepath.Abs(os.Args[0])
		if m.Type != "terminal" || m.Command != "ACME_LOGIN=1 "+self+" login" || !p.CanRunTerminal {
			t.Fatalf("terminal method %+v (terminal found: %v)", m, p.CanRunTerminal)
		}
		done, err := a.logins.runAuthInTerminal(p.SessionID, "cli-login")
		if err != nil {
			t.Fatal(err)
		}
		<-done
		if how, _ := os.ReadFile(state); string(how) != "terminal" {
			args, _ := os.ReadFile(argsFile)
			t.Fatalf("the terminal did not log in (state %q); it was called with:\n%s", how, args)
		}
		_, st := startAndWait(t, rec, func() (SessionInfo, error) { return a.logins.StartSessionWithAuth(p.SessionID, "cli-login", nil) })
		if st != acp.StateIdle {
			t.Fatalf("after the terminal login: %s", st)
		}
		if err := a.logins.RunAuthInTerminal(p.SessionID, "browser"); err == nil {
			t.Fatal("an agent method was run in a terminal")
		}
	})
}

// An agent that starts logged out and asks for the login on the prompt (the Claude Code
// adapter does): the failed turn offers its methods, and a login starts a new session that
// takes the prompt.
func TestALoginAskedForOnPromptIsOffered(t *testing.T) {
	isolatedConfig(t)
	t.Setenv("ACME_ASK_ON", "prompt")
	a, rec := newTestApp(t)
	state := saveLoginAgent(t, a, "tok-secret-9876")
	info, st := startAndWait(t, rec, func() (SessionInfo, error) { return a.sessions.StartSession("acme", t.TempDir(), nil, false, false) })
	if p, err := a.logins.SessionAuth(info.SessionID); st != acp.StateIdle || err != nil || len(p.Methods) != 0 {
		t.Fatalf("a logged-out agent that opens sessions: %s, %+v, %v", st, p, err)
	}
	turnEnd := func(id string) acp.Event {
		t.Helper()
		if err := a.sessions.Prompt(id, "hello"); err != nil {
			t.Fatal(err)
		}
		return rec.waitFor(t, func(e acp.Event) bool { return e.SessionID == id && e.Kind == acp.EventTurnEnd })
	}
	if end := turnEnd(info.SessionID); end.StopReason != schema.StopError || !strings.Contains(end.Message, "Acme needs you to log in") {
		t.Fatalf("the logged-out prompt ended %q: %s", end.StopReason, end.Message)
	}
	p, err := a.logins.SessionAuth(info.SessionID)
	if err != nil || len(p.Methods) != 3 || p.AgentID != "acme" || !strings.Contains(p.Message, "log in to Acme") {
		t.Fatalf("SessionAuth after the prompt: %+v, %v", p, err)
	}
	next, st := startAndWait(t, rec, func() (SessionInfo, error) { return a.logins.StartSessionWithAuth(info.SessionID, "browser", nil) })
	if how, _ := os.ReadFile(state); st != acp.StateIdle || string(how) != "browser" || next.SessionID == info.SessionID {
		t.Fatalf("after the browser login: %s, state file %q, session %s", st, how, next.SessionID)
	}
	if end := turnEnd(next.SessionID); end.StopReason != schema.StopEndTurn {
		t.Fatalf("the prompt after the login ended %q: %s", end.StopReason, end.Message)
	}
	if p, _ := a.logins.SessionAuth(next.SessionID); len(p.Methods) != 0 {
		t.Fatalf("a session whose turn ran still offers a login: %+v", p)
	}
	// The first session, logged in now too, takes a prompt; then it needs no login either.
	if end := turnEnd(info.SessionID); end.StopReason != schema.StopEndTurn {
		t.Fatalf("the first session's next prompt ended %q: %s", end.StopReason, end.Message)
	}
	if p, _ := a.logins.SessionAuth(info.SessionID); len(p.Methods) != 0 {
		t.Fatalf("the first session still offers a login after a turn that ran: %+v", p)
	}
}

// A session that started, or failed for another reason, offers no login.
func TestNoLoginOffersForOtherFailures(t *testing.T) {
	isolatedConfig(t)
	t.Setenv("AGENTDESK_DEMO_PACE", "0s")
	a, rec := newTestApp(t)
	info, st := startAndWait(t, rec, func() (SessionInfo, error) { return a.sessions.StartSession("demo", t.TempDir(), nil, false, false) })
	p, err := a.logins.SessionAuth(info.SessionID)
	if st != acp.StateIdle || err != nil || len(p.Methods) != 0 {
		t.Fatalf("a started session: %s, %+v, %v", st, p, err)
	}
	if _, err := a.logins.StartSessionWithAuth(info.SessionID, "browser", nil); err == nil {
		t.Fatal("a login was run for a session that needs none")
	}
	if _, err := a.logins.SessionAuth("nope"); err == nil {
		t.Fatal("an unknown session")
	}
}
