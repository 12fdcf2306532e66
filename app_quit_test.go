package main

import (
	"context"
	"os"
	"syscall"
	"testing"

	"agentdesk/backend/acp"
)

// TestQuitAsksOnceWhileATurnRuns: a close with a turn running is refused once and the page is
// asked, listing the session; a second close while asked goes through, as does one after the
// user confirmed; with every session idle nothing is asked.
func TestQuitAsksOnceWhileATurnRuns(t *testing.T) {
	a, rec, info := startDemoApp(t)
	quits := 0
	a.desktop.quitApp = func(context.Context) { quits++ }
	ctx := context.Background()

	if a.beforeClose(ctx) {
		t.Fatal("a close with every session idle was refused")
	}
	if err := a.sessions.Prompt(info.SessionID, "take your time"); err != nil {
		t.Fatal(err)
	}
	rec.waitFor(t, func(e acp.Event) bool { return e.Kind == acp.EventPermission }) // the demo asks: the turn runs
	if !a.beforeClose(ctx) {
		t.Fatal("a close with a turn running was not refused")
	}
	// emit is synchronous, so the request is queued by the time beforeClose returns.
	if asked := drainQuits(rec); len(asked) != 1 || len(asked[0].Sessions) != 1 ||
		asked[0].Sessions[0].SessionID != info.SessionID || asked[0].Sessions[0].State != string(acp.StateRunning) {
		t.Fatalf("the page was asked %+v, want the running session once", asked)
	}
	if a.beforeClose(ctx) {
		t.Fatal("a second close while the page is asking was refused: a stuck page would keep the window open")
	}
	a.desktop.CancelQuit()
	if !a.beforeClose(ctx) {
		t.Fatal("after Cancel, a close with the turn still running did not ask again")
	}
	if asked := drainQuits(rec); len(asked) != 1 {
		t.Fatalf("after Cancel the page was asked %d times, want once", len(asked))
	}
	a.desktop.ConfirmQuit()
	if quits != 1 || a.beforeClose(ctx) {
		t.Fatalf("after ConfirmQuit: %d quits, and the close was refused", quits)
	}
}

// drainQuits returns the quit requests emitted so far, without waiting.
func drainQuits(rec *recordingEmitter) []QuitRequest {
	var got []QuitRequest
	for {
		select {
		case q := <-rec.quits:
			got = append(got, q)
		default:
			return got
		}
	}
}

// TestASignalQuitsWithoutAsking: a SIGTERM while a turn runs (a permission open) quits at once,
// as a confirmed quit: nothing is asked, and the window's close that follows is not refused.
func TestASignalQuitsWithoutAsking(t *testing.T) {
	a, rec, info := startDemoApp(t)
	quit := make(chan struct{}, 1)
	a.desktop.quitApp = func(context.Context) { quit <- struct{}{} }
	if err := a.sessions.Prompt(info.SessionID, "take your time"); err != nil {
		t.Fatal(err)
	}
	rec.waitFor(t, func(e acp.Event) bool { return e.Kind == acp.EventPermission }) // the turn runs
	sigs := make(chan os.Signal, 1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	a.watchQuitSignals(ctx, sigs)
	sigs <- syscall.SIGTERM
	<-quit
	if a.beforeClose(ctx) {
		t.Fatal("the close after a SIGTERM was refused while a turn runs")
	}
	if asked := drainQuits(rec); len(asked) != 0 {
		t.Fatalf("the page was asked %+v after a SIGTERM", asked)
	}
}
