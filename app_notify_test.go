package main

import (
	"context"
	"strings"
	"testing"

	"agentdesk/backend/notify"
)

// recordedNotices stands in for the notifier: it keeps what Desktop asks of it.
type recordedNotices struct {
	posts chan notify.Message
	seen  chan struct{}
}

func newRecordedNotices() *recordedNotices {
	return &recordedNotices{posts: make(chan notify.Message, 10), seen: make(chan struct{}, 10)}
}

func (r *recordedNotices) Post(m notify.Message) { r.posts <- m }
func (r *recordedNotices) Seen()                 { r.seen <- struct{}{} }
func (r *recordedNotices) Close()                {}

// received returns what arrived on ch, failing when nothing did: Desktop's calls are
// synchronous, so it is there already or never.
func received[T any](t *testing.T, ch chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	default:
		t.Fatalf("no %s", what)
		var zero T
		return zero
	}
}

func TestNotifyAttentionPostsAndSetsTheUrgencyHintUntilSeen(t *testing.T) {
	a, _, info := startDemoApp(t)
	notes := newRecordedNotices()
	urgent := make(chan bool, 10)
	a.desktop.attention = &desktopAttention{notes: notes, urgent: func(on bool) { urgent <- on }, raise: func(context.Context) {}}

	if err := a.desktop.NotifyAttention(info.SessionID, "permission", "Demo agent", "Edit main.go"); err != nil {
		t.Fatal(err)
	}
	want := notify.Message{Session: info.SessionID, Kind: notify.Permission, Agent: "Demo agent", Title: "Edit main.go"}
	if got := received(t, notes.posts, "notification"); got != want {
		t.Fatalf("posted %+v, want %+v", got, want)
	}
	if !received(t, urgent, "urgency hint") {
		t.Fatal("the urgency hint was cleared, not set")
	}

	if err := a.desktop.NotifyAttention(info.SessionID, "finished", "Demo agent", "Fix the build"); err != nil {
		t.Fatal(err)
	}
	if got := received(t, notes.posts, "notification"); got.Kind != notify.Finished {
		t.Fatalf("posted %+v, want a finished one", got)
	}
	received(t, urgent, "urgency hint")

	a.desktop.AttentionSeen()
	received(t, notes.seen, "Seen")
	if received(t, urgent, "urgency hint") {
		t.Fatal("AttentionSeen set the urgency hint instead of clearing it")
	}
}

func TestNotifyAttentionRefusesUnknownKindsAndSessions(t *testing.T) {
	a, _, info := startDemoApp(t)
	notes := newRecordedNotices()
	a.desktop.attention = &desktopAttention{notes: notes, urgent: func(bool) {}, raise: func(context.Context) {}}

	if err := a.desktop.NotifyAttention(info.SessionID, "party", "Demo agent", "x"); err == nil || !strings.Contains(err.Error(), `unknown attention kind "party"`) {
		t.Fatalf("unknown kind: %v", err)
	}
	if err := a.desktop.NotifyAttention("no-such-session", "permission", "Demo agent", "x"); err == nil || !strings.Contains(err.Error(), "no live session") {
		t.Fatalf("unknown session: %v", err)
	}
	select {
	case m := <-notes.posts:
		t.Fatalf("posted %+v for a refused call", m)
	default:
	}

	// Without a notifier (tests, a failed start-up) the calls succeed and do nothing.
	a.desktop.attention = nil
	if err := a.desktop.NotifyAttention(info.SessionID, "permission", "Demo agent", "x"); err != nil {
		t.Fatal(err)
	}
	a.desktop.AttentionSeen()
}

func TestClickingANotificationRaisesTheWindowAndFocusesThePrompt(t *testing.T) {
	type emitted struct {
		name string
		data []interface{}
	}
	events := make(chan emitted, 10)
	raised := make(chan context.Context, 10)
	a := newApp(func(_ context.Context, name string, data ...interface{}) { events <- emitted{name, data} })
	a.ctx = context.WithValue(context.Background(), struct{}{}, "wails")
	a.desktop.attention = &desktopAttention{notes: newRecordedNotices(), urgent: func(bool) {}, raise: func(ctx context.Context) { raised <- ctx }}

	a.desktop.attentionClicked("s1") // as the notifier's OnAction does, on its own goroutine
	if ctx := received(t, raised, "raise"); ctx != a.ctx {
		t.Fatal("the window was raised with a context that is not Wails' own")
	}
	ev := received(t, events, "event")
	if ev.name != attentionFocusEvent || len(ev.data) != 1 || ev.data[0] != (AttentionFocus{SessionID: "s1"}) {
		t.Fatalf("emitted %s %v, want %s {s1}", ev.name, ev.data, attentionFocusEvent)
	}
}
