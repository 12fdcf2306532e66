package main

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/wailsapp/wails/v2/pkg/runtime"

	"agentdesk/backend/acp"
	"agentdesk/backend/hub"
)

// TestListLiveAndCloseSession: a second start opens a session beside the first; closing one
// leaves the other live, and both folders become recent, the latest the default.
func TestListLiveAndCloseSession(t *testing.T) {
	a, rec, first := startDemoApp(t)
	second, err := a.sessions.StartSession("demo", t.TempDir(), nil, false, false)
	if err != nil {
		t.Fatal(err)
	}
	rec.waitFor(t, func(e acp.Event) bool {
		return e.SessionID == second.SessionID && e.Kind == acp.EventState && e.State == acp.StateIdle
	})
	live := a.sessions.ListLive()
	if len(live) != 2 || live[0].SessionID != first.SessionID || live[1].SessionID != second.SessionID ||
		live[1].State != string(acp.StateIdle) || live[1].AgentName == "" || live[1].Cwd != second.Cwd {
		t.Fatalf("ListLive = %+v, want the two sessions in start order, idle", live)
	}
	if err := a.sessions.CloseSession(first.SessionID); err != nil {
		t.Fatal(err)
	}
	if live := a.sessions.ListLive(); len(live) != 1 || live[0].SessionID != second.SessionID {
		t.Fatalf("ListLive after closing the first = %+v", live)
	}
	if err := a.sessions.Prompt(first.SessionID, "hi"); err == nil || !strings.HasSuffix(err.Error(), "open it from the history") {
		t.Fatalf("Prompt to the closed session: %v", err)
	}
	if err := a.sessions.CancelStart(second.SessionID); err == nil || !strings.Contains(err.Error(), "close the session instead") {
		t.Fatalf("CancelStart of a started session: %v", err)
	}
	recent, err := a.sessions.RecentFolders("demo")
	if err != nil || len(recent) != 2 || recent[0] != second.Cwd || recent[1] != first.Cwd {
		t.Fatalf("RecentFolders = %v, %v, want %s then %s", recent, err, second.Cwd, first.Cwd)
	}
	if d := a.sessions.DefaultFolder(); d != second.Cwd {
		t.Fatalf("DefaultFolder = %s, want the last one used, %s", d, second.Cwd)
	}
}

// TestFolderDialogAndCheck: Browse opens the system's dialog at the form's folder; Check says
// when a folder is the home folder itself.
func TestFolderDialogAndCheck(t *testing.T) {
	a, _, info := startDemoApp(t)
	var asked runtime.OpenDialogOptions
	a.sessions.folderDialog = func(_ context.Context, o runtime.OpenDialogOptions) (string, error) {
		asked = o
		return "/picked", nil
	}
	if got, err := a.sessions.BrowseFolder(info.Cwd); err != nil || got != "/picked" || asked.DefaultDirectory != info.Cwd {
		t.Fatalf("BrowseFolder = %q, %v; the dialog opened at %q, want %q", got, err, asked.DefaultDirectory, info.Cwd)
	}
	home := t.TempDir()
	t.Setenv("HOME", home)
	if c, err := a.sessions.CheckFolder("~"); err != nil || c.Path != home || c.Broad != "home" {
		t.Fatalf("CheckFolder(~) = %+v, %v", c, err)
	}
	if _, err := a.sessions.CheckFolder(home + "/gone"); err == nil || !strings.HasSuffix(err.Error(), "choose an existing project folder") {
		t.Fatalf("CheckFolder of a missing folder: %v", err)
	}
}

// TestEveryLiveVerbRefusesASessionThatIsNotLive: each verb of Sessions on one live session looks
// it up through the one helper (onLive, withLive), so each refuses an id that is not live alike:
// the hub's error underneath, the window's words said once.
func TestEveryLiveVerbRefusesASessionThatIsNotLive(t *testing.T) {
	a, _, _ := startDemoApp(t)
	ss := a.sessions
	const gone = "gone"
	verbs := map[string]func() error{
		"Prompt":             func() error { return ss.Prompt(gone, "hi") },
		"PromptWith":         func() error { return ss.PromptWith(gone, "hi", nil) },
		"Stop":               func() error { return ss.Stop(gone) },
		"HardStop":           func() error { return ss.HardStop(gone) },
		"ContinueSession":    func() error { _, err := ss.ContinueSession(gone); return err },
		"AnswerPermission":   func() error { return ss.AnswerPermission(gone, "r1", "o1") },
		"Snapshot":           func() error { _, err := ss.Snapshot(gone); return err },
		"EditQueued":         func() error { return ss.EditQueued(gone, "q1", "x") },
		"RemoveQueued":       func() error { return ss.RemoveQueued(gone, "q1") },
		"SendQueuedNow":      func() error { return ss.SendQueuedNow(gone, "q1") },
		"Steer":              func() error { return ss.Steer(gone, "q1") },
		"SetMode":            func() error { return ss.SetMode(gone, "m") },
		"SetModel":           func() error { return ss.SetModel(gone, "m") },
		"SetConfigOption":    func() error { return ss.SetConfigOption(gone, "c", `"v"`) },
		"TerminalInput":      func() error { return ss.TerminalInput(gone, "t1", "ls\r") },
		"TerminalInterrupt":  func() error { return ss.TerminalInterrupt(gone, "t1") },
		"AnswerElicitation":  func() error { return ss.AnswerElicitation(gone, "e1", "decline", nil) },
		"OpenElicitationURL": func() error { return ss.OpenElicitationURL(gone, "e1") },
		"ListFolderFiles":    func() error { _, err := ss.ListFolderFiles(gone, ""); return err },
		"ChooseFileElsewhere": func() error {
			_, err := ss.ChooseFileElsewhere(gone)
			return err
		},
		"AttachDropped":      func() error { _, err := ss.AttachDropped(gone, []string{"/x"}); return err },
		"DeleteAgentSession": func() error { return ss.DeleteAgentSession(gone, "a1") },
		"LogoutAgent":        func() error { return ss.LogoutAgent(gone) },
	}
	for name, call := range verbs {
		err := call()
		var notLive *hub.NoLiveSessionError
		if !errors.As(err, &notLive) || notLive.ID != gone {
			t.Errorf("%s on a session that is not live: %v, want the hub's NoLiveSessionError", name, err)
			continue
		}
		if want := notLive.Error() + "; open it from the history"; err.Error() != want {
			t.Errorf("%s: %q, want the window's words once: %q", name, err, want)
		}
	}
}
