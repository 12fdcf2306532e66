package main

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/attach"
	"agentdesk/backend/acp/schema"
	"agentdesk/backend/hub"
)

// TestWindowWordsTheEngineErrors: each refusal of the engine and the hub reads as the window's
// user needs it (its Stop button, its history, its folder field), never the command line's
// advice, and errors.Is still finds the engine's error underneath.
func TestWindowWordsTheEngineErrors(t *testing.T) {
	for _, c := range []struct {
		err  error
		want string
	}{
		{fmt.Errorf("prompt: %w", acp.ErrBusy), "the agent is still starting: send the prompt once it is ready"},
		{&acp.StateError{State: acp.StateExited, Err: acp.ErrEnded}, "the session has exited: start a new session"},
		{&acp.StateError{State: acp.StateIdle, Err: acp.ErrNotExited}, "only a session whose agent has exited can be continued (this one is idle)"},
		{&hub.NoLiveSessionError{ID: "s1"}, "no live session s1: it has ended or belongs to an earlier run; open it from the history"},
		{hub.ErrNoFolder, "choose a project folder for the session"},
		{&acp.StartTimeoutError{Agent: "Claude", Method: schema.MethodSessionNew, After: 2 * time.Minute},
			"Claude did not answer session/new within 2 min: try again; if it happens again, run the agent's command in a terminal to see what it waits for (a download, a login)"},
		{acp.ErrStartCancelled, "the start was cancelled: start again when you are ready"},
		{&hub.FolderError{Path: "/nowhere"}, `folder "/nowhere" does not exist: choose an existing project folder`},
		{&acp.TerminalLoginError{Method: "cli-login", Args: []string{"auth", "login"}},
			`auth method "cli-login" is a terminal login: run the agent's command with "auth login" in a terminal, then start again without choosing a method`},
		{&attach.Error{Name: "notes.md", Reason: attach.Missing, Detail: "/x/notes.md does not exist (was it moved or deleted?)"},
			"cannot attach notes.md: /x/notes.md does not exist (was it moved or deleted?): pick it again"},
		{&attach.Error{Name: "a.bin", Reason: attach.NotRegular, Detail: "it is not a regular file"}, "cannot attach a.bin: it is not a regular file"},
	} {
		got := forWindow(c.err)
		if got == nil || got.Error() != c.want {
			t.Errorf("forWindow(%T) = %v, want %q", c.err, got, c.want)
		}
		if !errors.Is(got, c.err) {
			t.Errorf("forWindow(%T) hides the engine's error from errors.Is", c.err)
		}
		if strings.Contains(got.Error(), "--") || strings.Contains(got.Error(), "Ctrl-C") {
			t.Errorf("forWindow(%T) = %q: the command line's words", c.err, got)
		}
	}
	if forWindow(nil) != nil {
		t.Error("forWindow(nil) is not nil")
	}
	plain := errors.New("could not read the history")
	if forWindow(plain) != plain {
		t.Error("an error the window has no words for is not passed on as it is")
	}
}

// TestBoundVerbsUseTheWindowsWords: a verb on a session that is not live, and a prompt on a busy
// one, come back worded for the window.
func TestBoundVerbsUseTheWindowsWords(t *testing.T) {
	a, _, info := startDemoApp(t)
	if err := a.sessions.Prompt("gone", "hi"); err == nil || !strings.HasSuffix(err.Error(), "; open it from the history") {
		t.Fatalf("Prompt on no live session: %v", err)
	}
	if _, err := a.sessions.StartSession("demo", "/no/such/folder", nil, false, false); err == nil || !strings.HasSuffix(err.Error(), ": choose an existing project folder") {
		t.Fatalf("StartSession in a missing folder: %v", err)
	}
	if _, err := a.sessions.ContinueSession(info.SessionID); err == nil || !strings.HasPrefix(err.Error(), "only a session whose agent has exited") {
		t.Fatalf("ContinueSession of a running agent: %v", err)
	}
}

// TestForWindowWordsOnce: an error the window has worded already (a verb's own words, passed on
// by the live-session helper) keeps them; its words are never added twice.
func TestForWindowWordsOnce(t *testing.T) {
	notLive := &hub.NoLiveSessionError{ID: "s1"}
	once := forWindow(notLive)
	if twice := forWindow(once); twice.Error() != once.Error() || !errors.Is(twice, notLive) {
		t.Fatalf("worded twice: %q, want %q", twice, once)
	}
	asked := elicitationForWindow(acp.ErrElicitationNotOpen)
	if got := forWindow(asked); got.Error() != asked.Error() {
		t.Fatalf("the elicitation's words became %q, want %q", got, asked)
	}
}
