package notify

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m) // the worker, the signal listener and godbus's goroutines end with Close
}

// newNotifier starts a Notifier on addr, closed when the test ends; log lines go to the
// returned channel.
func newNotifier(t *testing.T, opt Options) (*Notifier, chan string) {
	t.Helper()
	logs := make(chan string, 100)
	opt.Logf = func(format string, args ...any) { logs <- fmt.Sprintf(format, args...) }
	n := New(opt)
	t.Cleanup(n.Close)
	return n, logs
}

// barrier posts a notification for a session of its own and waits until the server shows it:
// the worker makes calls in order, so everything posted before has been handled then.
func barrier(t *testing.T, n *Notifier, srv *fakeServer) notifyCall {
	t.Helper()
	n.Post(Message{Session: fmt.Sprintf("barrier-%d", time.Now().UnixNano()), Kind: Finished, Agent: "x", Title: "barrier"})
	return srv.next(t)
}

func nextLog(t *testing.T, logs chan string) string {
	t.Helper()
	return receive(t, logs, "a log line")
}

func TestNotifySendsTheSpecArguments(t *testing.T) {
	addr := privateBus(t)
	srv := startServer(t, addr, "body", "body-markup", "actions")
	n, _ := newNotifier(t, Options{Address: addr, Icon: "file:///usr/share/icons/hicolor/1024x1024/apps/agentdesk.png", DesktopEntry: "agentdesk"})

	n.Post(Message{Session: "s1", Kind: Permission, Agent: "Demo agent", Title: "Edit <b>main.go</b> & run\n  `make`"})
	c := srv.next(t)
	if c.App != "agentdesk" || c.Replaces != 0 || c.Icon != "file:///usr/share/icons/hicolor/1024x1024/apps/agentdesk.png" {
		t.Fatalf("app, replaces_id, icon = %q, %d, %q", c.App, c.Replaces, c.Icon)
	}
	if c.Summary != "Permission needed" {
		t.Fatalf("summary = %q", c.Summary)
	}
	// The server renders markup: the agent's text is escaped, and flattened to one line.
	if want := "Demo agent: Edit &lt;b&gt;main.go&lt;/b&gt; &amp; run `make`"; c.Body != want {
		t.Fatalf("body = %q, want %q", c.Body, want)
	}
	if len(c.Actions) != 2 || c.Actions[0] != DefaultAction {
		t.Fatalf("actions = %q, want the default action and its label", c.Actions)
	}
	if v := c.Hints["desktop-entry"].Value(); v != "agentdesk" {
		t.Fatalf("desktop-entry hint = %v", v)
	}
	if v := c.Hints["urgency"].Value(); v != byte(1) {
		t.Fatalf("urgency hint = %v (%T), want byte 1 (normal)", v, v)
	}
	if c.Timeout != -1 {
		t.Fatalf("expire_timeout = %d, want -1 (the server's default)", c.Timeout)
	}
}

func TestBodyIsPlainForAServerWithoutMarkup(t *testing.T) {
	addr := privateBus(t)
	srv := startServer(t, addr, "body", "actions")
	n, _ := newNotifier(t, Options{Address: addr})

	n.Post(Message{Session: "s1", Kind: Finished, Agent: "Codex", Title: "a < b & c"})
	c := srv.next(t)
	if c.Summary != "Agent finished" || c.Body != "Codex: a < b & c" {
		t.Fatalf("summary, body = %q, %q", c.Summary, c.Body)
	}
}

func TestManyPermissionsUpdateOneNotificationAtMostOncePerInterval(t *testing.T) {
	addr := privateBus(t)
	srv := startServer(t, addr, "body")
	clock := newFakeClock()
	n, _ := newNotifier(t, Options{Address: addr, Clock: clock, Interval: 2 * time.Second})

	n.Post(Message{Session: "s1", Kind: Permission, Agent: "Demo agent", Title: "tool 1"})
	first := srv.next(t)
	if first.Replaces != 0 || first.Summary != "Permission needed" || first.Body != "Demo agent: tool 1" {
		t.Fatalf("first notification = %+v", first)
	}

	// Nine more at once: nothing is shown until the interval is over...
	for i := 2; i <= 10; i++ {
		n.Post(Message{Session: "s1", Kind: Permission, Agent: "Demo agent", Title: fmt.Sprintf("tool %d", i)})
	}
	if d := clock.waitScheduled(t); d != 2*time.Second {
		t.Fatalf("the update waits %s, want the whole interval", d)
	}
	srv.noCall(t)

	// ...another session is not held back by s1's limit...
	n.Post(Message{Session: "s2", Kind: Permission, Agent: "Codex", Title: "read"})
	other := srv.next(t)
	if other.Replaces != 0 || other.ID == first.ID || other.Summary != "Permission needed" {
		t.Fatalf("the other session's notification = %+v", other)
	}

	// ...then one update, in place, counting them all.
	clock.advance(2 * time.Second)
	update := srv.next(t)
	if update.Replaces != first.ID || update.Summary != "10 permissions waiting" || update.Body != "Demo agent: tool 10" {
		t.Fatalf("update = %+v, want 10 waiting replacing id %d", update, first.ID)
	}

	// The turn ends: the same notification says so, after the interval again.
	n.Post(Message{Session: "s1", Kind: Finished, Agent: "Demo agent", Title: "Fix the build"})
	clock.waitScheduled(t)
	srv.noCall(t)
	clock.advance(2 * time.Second)
	done := srv.next(t)
	if done.Replaces != first.ID || done.Summary != "Agent finished" || done.Body != "Demo agent: Fix the build" {
		t.Fatalf("finished = %+v", done)
	}
}

func TestClickingANotificationCallsBackWithItsSession(t *testing.T) {
	addr := privateBus(t)
	srv := startServer(t, addr, "body", "actions")
	clicks := make(chan string, 10)
	n, _ := newNotifier(t, Options{Address: addr, OnAction: func(session string) { clicks <- session }})

	n.Post(Message{Session: "s1", Kind: Permission, Agent: "Demo agent", Title: "Edit main.go"})
	c := srv.next(t)
	barrier(t, n, srv) // the notifier knows c.ID now

	srv.click(t, c.ID+100, DefaultAction) // someone else's notification
	srv.click(t, c.ID, "some-other-action")
	srv.click(t, c.ID, DefaultAction)
	select {
	case s := <-clicks:
		if s != "s1" {
			t.Fatalf("OnAction(%q), want s1", s)
		}
	case <-time.After(guard):
		t.Fatal("clicking the notification did not call OnAction")
	}
	// Signals arrive in order, so an earlier wrong callback would have come first.
	select {
	case s := <-clicks:
		t.Fatalf("a second OnAction(%q)", s)
	default:
	}
}

func TestSeenWithdrawsAndCountsAgain(t *testing.T) {
	addr := privateBus(t)
	srv := startServer(t, addr, "body")
	n, _ := newNotifier(t, Options{Address: addr})

	n.Post(Message{Session: "s1", Kind: Permission, Agent: "A", Title: "one"})
	c := srv.next(t)
	b := barrier(t, n, srv)

	n.Seen()
	closed := []uint32{srv.nextClose(t), srv.nextClose(t)}
	if !slices.Contains(closed, c.ID) || !slices.Contains(closed, b.ID) {
		t.Fatalf("closed %v, want %d and %d", closed, c.ID, b.ID)
	}

	n.Post(Message{Session: "s1", Kind: Permission, Agent: "A", Title: "two"})
	again := srv.next(t)
	if again.Replaces != 0 || again.Summary != "Permission needed" {
		t.Fatalf("after Seen: %+v, want a new notification counting from one", again)
	}
}

func TestNoSessionBusLogsOnceAndNeverBlocks(t *testing.T) {
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "")
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	n, logs := newNotifier(t, Options{})

	n.Post(Message{Session: "s1", Kind: Permission, Agent: "A", Title: "x"})
	if line := nextLog(t, logs); !strings.Contains(line, "desktop notifications are off") || !strings.Contains(line, "no D-Bus session bus") {
		t.Fatalf("log = %q", line)
	}
	n.Post(Message{Session: "s2", Kind: Permission, Agent: "A", Title: "y"})
	n.Seen()
	n.Close()
	select {
	case line := <-logs:
		t.Fatalf("a second log line: %q", line)
	default:
	}
	n.Post(Message{Session: "s3", Kind: Permission}) // after Close: nothing, no panic
}

func TestABusThatNeverAnswersIsGivenUpOn(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "bus")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	accepted := make(chan net.Conn, 4)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				close(accepted)
				return
			}
			accepted <- c // held open, never answered
		}
	}()
	t.Cleanup(func() {
		_ = ln.Close()
		for c := range accepted {
			_ = c.Close()
		}
	})
	n, logs := newNotifier(t, Options{Address: "unix:path=" + sock, Timeout: 200 * time.Millisecond})

	n.Post(Message{Session: "s1", Kind: Permission, Agent: "A", Title: "x"})
	if line := nextLog(t, logs); !strings.Contains(line, "did not answer within 200ms") {
		t.Fatalf("log = %q", line)
	}
	n.Close()
}

func TestNoNotificationServerLogsOnceThenWorksWhenOneAppears(t *testing.T) {
	addr := privateBus(t)
	n, logs := newNotifier(t, Options{Address: addr})

	n.Post(Message{Session: "s1", Kind: Permission, Agent: "A", Title: "x"})
	if line := nextLog(t, logs); !strings.Contains(line, "desktop notification failed") || !strings.Contains(line, ServiceName) {
		t.Fatalf("log = %q", line)
	}
	n.Post(Message{Session: "s2", Kind: Permission, Agent: "A", Title: "y"})

	srv := startServer(t, addr, "body", "body-markup")
	n.Post(Message{Session: "s3", Kind: Finished, Agent: "A", Title: "<z>"})
	for {
		c := srv.next(t)
		if c.Body == "A: &lt;z&gt;" { // the capabilities are asked again, now that someone answers
			break
		}
		if c.Body != "A: y" {
			t.Fatalf("unexpected notification %+v", c)
		}
	}
	select {
	case line := <-logs:
		t.Fatalf("a second log line: %q", line)
	default:
	}
}

func TestRenderFlattensAndShortens(t *testing.T) {
	long := strings.Repeat("é", 300)
	for _, tc := range []struct {
		m       Message
		waiting int
		want    text
	}{
		{Message{Kind: Permission, Agent: "Claude Code", Title: "Run\tgo test\n./..."}, 1, text{"Permission needed", "Claude Code: Run go test ./..."}},
		{Message{Kind: Permission, Agent: "Claude Code", Title: ""}, 3, text{"3 permissions waiting", "Claude Code"}},
		{Message{Kind: Finished, Agent: "", Title: "  Fix the build  "}, 0, text{"Agent finished", "Fix the build"}},
		{Message{Kind: Finished, Agent: "A", Title: long}, 0, text{"Agent finished", "A: " + strings.Repeat("é", maxField-1) + "…"}},
	} {
		if got := render(tc.m, tc.waiting); got != tc.want {
			t.Errorf("render(%+v, %d) = %+v, want %+v", tc.m, tc.waiting, got, tc.want)
		}
	}
}

func TestIconPrefersTheInstalledFile(t *testing.T) {
	home, sys := t.TempDir(), t.TempDir()
	t.Setenv("XDG_DATA_HOME", home)
	t.Setenv("XDG_DATA_DIRS", sys)
	if got := Icon("agentdesk", "dialog-information"); got != "dialog-information" {
		t.Fatalf("not installed: %q", got)
	}
	dir := filepath.Join(sys, "icons", "hicolor", "1024x1024", "apps")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "agentdesk.png"), []byte("png"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, want := Icon("agentdesk", "dialog-information"), "file://"+filepath.Join(dir, "agentdesk.png"); got != want {
		t.Fatalf("installed: %q, want %q", got, want)
	}
}
