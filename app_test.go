package main

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"strings"
	"sync"
	"testing"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/acptest"
	"agentdesk/backend/acp/schema"
	"agentdesk/backend/cli"
)

// TestMain lets this test binary serve the Demo agent, as the real binary does: the hub starts
// agents.Self() with "demo-agent".
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == "demo-agent" {
		os.Exit(cliRun(os.Stdin, os.Stdout, os.Stderr, os.Args[1:]...))
	}
	// Each App would run the developer's login shell; its capture is tested in backend/agents.
	os.Setenv("AGENTDESK_NO_LOGIN_ENV", "1")
	os.Exit(m.Run())
}

// recordingEmitter stands in for the Wails runtime: it keeps every event the App emits.
type recordingEmitter struct {
	mu       sync.Mutex
	all      []acp.Event
	feed     chan acp.Event
	statuses chan HistoryStatus // history:status events
	quits    chan QuitRequest   // app:quit-request events
	drops    chan FilesDropped  // app:files-dropped events
}

func (r *recordingEmitter) emit(_ context.Context, name string, data ...interface{}) {
	if name == historyStatusEvent && len(data) == 1 {
		r.statuses <- data[0].(HistoryStatus)
		return
	}
	if name == quitRequestEvent && len(data) == 1 {
		r.quits <- data[0].(QuitRequest)
		return
	}
	if name == filesDroppedEvent && len(data) == 1 {
		r.drops <- data[0].(FilesDropped)
		return
	}
	if name != acp.EventName || len(data) == 0 {
		panic("unexpected event " + name)
	}
	for _, d := range data { // a batch: several events in one message, in seq order
		ev := d.(acp.Event)
		r.mu.Lock()
		r.all = append(r.all, ev)
		r.mu.Unlock()
		r.feed <- ev
	}
}

func (r *recordingEmitter) waitFor(t *testing.T, match func(acp.Event) bool) acp.Event {
	t.Helper()
	return acptest.Await(t, r.feed, "matching event", match)
}

// cliRun runs the command line as main does, for the tests that check the window and the
// command line agree.
func cliRun(in io.Reader, out, errOut io.Writer, args ...string) int {
	return cli.Run(context.Background(), args, cli.Stdio{In: in, Out: out, Err: errOut}, cli.Options{})
}

func newTestApp(t *testing.T) (*App, *recordingEmitter) {
	t.Helper()
	rec := &recordingEmitter{feed: make(chan acp.Event, 10000), statuses: make(chan HistoryStatus, 100), quits: make(chan QuitRequest, 10),
		drops: make(chan FilesDropped, 10)}
	a := newApp(rec.emit)
	if err := a.init(context.Background()); err != nil {
		t.Fatal(err)
	}
	a.ctx = context.Background()
	return a, rec
}

func TestAppTurnIsSavedAndReopens(t *testing.T) {
	t.Setenv("AGENTDESK_DB", t.TempDir()+"/history.db")
	t.Setenv("AGENTDESK_DEMO_PACE", "0s")
	a, rec := newTestApp(t)

	if _, err := a.sessions.StartSession("demo", "/no/such/folder", nil, false, false); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Fatalf("start in a missing folder: %v", err)
	}
	info, err := a.sessions.StartSession("demo", t.TempDir(), nil, false, false)
	if err != nil {
		t.Fatal(err)
	}
	rec.waitFor(t, func(e acp.Event) bool { return e.Kind == acp.EventState && e.State == acp.StateIdle })
	if err := a.sessions.Prompt(info.SessionID, "hello"); err != nil {
		t.Fatal(err)
	}
	p := rec.waitFor(t, func(e acp.Event) bool { return e.Kind == acp.EventPermission })
	if err := a.sessions.AnswerPermission(info.SessionID, p.RequestID, "no-such-option"); err == nil {
		t.Fatal("an option the agent did not offer was accepted")
	}
	if err := a.sessions.AnswerPermission(info.SessionID, p.RequestID, "allow"); err != nil {
		t.Fatal(err)
	}
	if end := rec.waitFor(t, func(e acp.Event) bool { return e.Kind == acp.EventTurnEnd }); end.StopReason != schema.StopEndTurn {
		t.Fatalf("stop reason %q", end.StopReason)
	}
	live, err := a.sessions.Snapshot(info.SessionID)
	if err != nil {
		t.Fatal(err)
	}
	a.shutdown(context.Background())

	// A restarted app finds the session in the history, rendered as it was live.
	b, _ := newTestApp(t)
	defer b.shutdown(context.Background())
	items, err := b.history.ListHistory("")
	if err != nil || len(items) != 1 || items[0].ID != info.SessionID || items[0].Title != "hello" || items[0].Outcome != schema.StopEndTurn ||
		items[0].AgentID != "demo" { // the page fills the top bar's agent from it
		t.Fatalf("history = %+v, %v", items, err)
	}
	saved, err := b.history.OpenHistory(info.SessionID)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := transcriptMarkdown(saved.Entries), transcriptMarkdown(live.Entries); got != want {
		t.Fatalf("the saved transcript differs from the live one:\n--- saved\n%s\n--- live\n%s", got, want)
	}
	// Search finds what a tool call showed: here the output of the checks run in our terminal.
	if found, err := b.history.ListHistory("example.com/app/store"); err != nil || len(found) != 1 || !strings.Contains(found[0].Snippet, "[[") {
		t.Fatalf("a search for the terminal output found %+v, %v", found, err)
	}
	for _, e := range saved.Entries {
		if e.Kind == acp.KindTool && e.Text != "" {
			t.Fatalf("a saved tool call came back with the text it is searched by: %+v", e)
		}
	}
	if len(saved.Turns) != 1 || saved.Turns[0].StopReason != schema.StopEndTurn {
		t.Fatalf("saved turns %+v", saved.Turns)
	}
	n := len(saved.Entries)
	tail, err := b.history.OpenHistoryPart(info.SessionID, -1, 2)
	if err != nil || tail.From != n-2 || tail.Total != n || tail.Snapshot.Title != saved.Title ||
		transcriptMarkdown(tail.Snapshot.Entries) != transcriptMarkdown(saved.Entries[n-2:]) {
		t.Fatalf("the end, 2 entries (%v): from %d of %d, %+v; want the last 2 of %d entries", err, tail.From, tail.Total, tail.Snapshot.Entries, n)
	}
	head, err := b.history.OpenHistoryPart(info.SessionID, 0, n-2)
	if err != nil || head.From != 0 || transcriptMarkdown(head.Snapshot.Entries) != transcriptMarkdown(saved.Entries[:n-2]) {
		t.Fatalf("the rest (%v): from %d, %+v", err, head.From, head.Snapshot.Entries)
	}
	perms, err := b.store.Permissions(context.Background(), info.SessionID)
	if err != nil || len(perms) != 1 || perms[0].Outcome != "selected" || perms[0].OptionID != "allow" ||
		perms[0].DecidedBy != "user" || perms[0].Turn != 1 || perms[0].ToolCallID != p.ToolCallID {
		t.Fatalf("saved permissions %+v, %v", perms, err)
	}
	if err := b.history.RenameHistory(info.SessionID, "  Greeting  "); err != nil {
		t.Fatal(err)
	}
	if err := b.history.RenameHistory(info.SessionID, " "); err == nil {
		t.Fatal("an empty title was accepted")
	}
	if items, _ := b.history.ListHistory(""); items[0].Title != "Greeting" {
		t.Fatalf("title after rename: %q", items[0].Title)
	}
	md, err := b.history.ExportHistory(info.SessionID, "md")
	if err != nil || !strings.HasPrefix(md, "# Greeting\n") || !strings.Contains(md, "*Turn 1 ended: end_turn*") {
		t.Fatalf("markdown export (%v):\n%s", err, md)
	}
	js, err := b.history.ExportHistory(info.SessionID, "json")
	var doc struct{ Entries []acp.Entry }
	if err != nil || json.Unmarshal([]byte(js), &doc) != nil || len(doc.Entries) != len(live.Entries) {
		t.Fatalf("json export (%v): %d entries, want %d", err, len(doc.Entries), len(live.Entries))
	}
	if _, err := b.history.ExportHistory(info.SessionID, "pdf"); err == nil {
		t.Fatal("an unknown export format was accepted")
	}
	if err := b.history.DeleteHistory(info.SessionID); err != nil {
		t.Fatal(err)
	}
	if items, _ := b.history.ListHistory(""); len(items) != 0 {
		t.Fatalf("history after delete: %+v", items)
	}
	if _, err := b.history.OpenHistory(info.SessionID); err == nil || !strings.Contains(err.Error(), "not in the history") {
		t.Fatalf("opening a deleted session: %v", err)
	}
	if _, err := b.history.OpenHistoryPart(info.SessionID, -1, 10); err == nil || !strings.Contains(err.Error(), "not in the history") {
		t.Fatalf("opening the end of a deleted session: %v", err)
	}
	if err := b.sessions.Prompt(info.SessionID, "x"); err == nil {
		t.Fatal("a session of an earlier run accepted a prompt")
	}
}

// startDemoApp starts an App on a temp database with a Demo agent session, idle; the App is
// shut down when the test ends.
func startDemoApp(t *testing.T) (*App, *recordingEmitter, SessionInfo) {
	t.Helper()
	t.Setenv("AGENTDESK_DB", t.TempDir()+"/history.db")
	t.Setenv("AGENTDESK_DEMO_PACE", "0s")
	a, rec := newTestApp(t)
	t.Cleanup(func() { a.shutdown(context.Background()) })
	info, err := a.sessions.StartSession("demo", t.TempDir(), nil, false, false)
	if err != nil {
		t.Fatal(err)
	}
	rec.waitFor(t, func(e acp.Event) bool { return e.Kind == acp.EventState && e.State == acp.StateIdle })
	return a, rec, info
}

func transcriptMarkdown(entries []acp.Entry) string {
	var b strings.Builder
	for i := range entries {
		b.WriteString(acp.EntryMarkdown(&entries[i]))
	}
	return b.String()
}

func TestDeletingALiveSessionsHistoryStopsSavingIt(t *testing.T) {
	a, rec, info := startDemoApp(t)
	if err := a.history.DeleteHistory(info.SessionID); err != nil {
		t.Fatal(err)
	}
	if err := a.sessions.Prompt(info.SessionID, "still here?"); err != nil {
		t.Fatalf("the live session stopped with its history: %v", err)
	}
	p := rec.waitFor(t, func(e acp.Event) bool { return e.Kind == acp.EventPermission })
	if err := a.sessions.AnswerPermission(info.SessionID, p.RequestID, "allow"); err != nil {
		t.Fatal(err)
	}
	if end := rec.waitFor(t, func(e acp.Event) bool { return e.Kind == acp.EventTurnEnd }); end.StopReason != schema.StopEndTurn {
		t.Fatalf("turn ended %+v", end)
	}
	if items, err := a.history.ListHistory(""); err != nil || len(items) != 0 {
		t.Fatalf("history after the delete and another turn: %+v, %v", items, err)
	}
}

func TestHistoryNoticeSaysWhyNothingIsSaved(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(dir+"/not-a-db", []byte("this is not SQLite"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("AGENTDESK_DB", dir+"/not-a-db") // a file the user chose: refused, never moved
	a := newApp(func(context.Context, string, ...interface{}) {})
	_ = a.init(context.Background())
	a.ctx = context.Background()
	if n := a.history.HistoryNotice(); !strings.Contains(n, "not being saved") || !strings.Contains(n, "not-a-db") {
		t.Fatalf("notice %q", n)
	}
	if _, err := a.sessions.StartSession("demo", dir, nil, false, false); err != nil {
		t.Fatalf("without a history the app must still run sessions: %v", err)
	}
	a.shutdown(context.Background())
	if data, _ := os.ReadFile(dir + "/not-a-db"); string(data) != "this is not SQLite" {
		t.Fatal("the user's file was changed")
	}
}
