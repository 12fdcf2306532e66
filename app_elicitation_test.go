package main

import (
	"context"
	"strings"
	"testing"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/elicit"
)

// elicitationEntry waits for the upsert of an elicitation entry in state.
func elicitationEntry(t *testing.T, rec *recordingEmitter, state string) *acp.Elicitation {
	t.Helper()
	ev := rec.waitFor(t, func(e acp.Event) bool {
		return e.Kind == acp.EventEntry && e.Entry.Kind == acp.KindElicitation && e.Entry.Elicitation.State == state
	})
	return ev.Entry.Elicitation
}

func TestAppAnswersElicitationsAndOpensOnlyTheAgentsURL(t *testing.T) {
	a, rec, info := startDemoApp(t)
	var opened []string
	a.sessions.openURL = func(_ context.Context, url string) { opened = append(opened, url) }

	if err := a.sessions.Prompt(info.SessionID, "ask me"); err != nil {
		t.Fatal(err)
	}
	form := elicitationEntry(t, rec, acp.ElicitOpen)
	if err := a.sessions.OpenElicitationURL(info.SessionID, form.RequestID); err == nil || !strings.Contains(err.Error(), "no link") {
		t.Fatalf("opening a form: %v", err)
	}
	if err := a.sessions.AnswerElicitation(info.SessionID, form.RequestID, "accept", map[string]any{"count": 3.0}); err == nil ||
		!strings.Contains(err.Error(), `check the form: field "name": is required`) {
		t.Fatalf("an answer without the required name: %v", err)
	}
	if err := a.sessions.AnswerElicitation(info.SessionID, form.RequestID, "accept",
		map[string]any{"name": "Ann", "token": "tok-app-secret"}); err != nil {
		t.Fatal(err)
	}
	if got := elicitationEntry(t, rec, acp.ElicitAccepted); got.Answer["token"] != elicit.SecretMask {
		t.Fatalf("accepted %+v", got)
	}
	if err := a.sessions.AnswerElicitation(info.SessionID, form.RequestID, "decline", nil); err == nil ||
		!strings.Contains(err.Error(), "no longer open") {
		t.Fatalf("a second answer: %v", err)
	}
	rec.waitFor(t, func(e acp.Event) bool { return e.Kind == acp.EventTurnEnd })

	if err := a.sessions.Prompt(info.SessionID, "open a link"); err != nil {
		t.Fatal(err)
	}
	link := elicitationEntry(t, rec, acp.ElicitOpen)
	if err := a.sessions.OpenElicitationURL(info.SessionID, link.RequestID); err != nil {
		t.Fatal(err)
	}
	if err := a.sessions.AnswerElicitation(info.SessionID, link.RequestID, "accept", nil); err != nil {
		t.Fatal(err)
	}
	elicitationEntry(t, rec, acp.ElicitCompleted)
	if len(opened) != 1 || opened[0] != "https://example.com/login" {
		t.Fatalf("opened %v", opened)
	}
	if err := a.sessions.OpenElicitationURL(info.SessionID, link.RequestID); err == nil {
		t.Fatal("a completed link was opened again")
	}
}
