package notify

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"
)

// The test doubles: a private dbus-daemon per test, a fake notification server on it, and a
// clock moved by hand.

// guard bounds every wait of these tests; nothing here should take more than a blink.
const guard = 10 * time.Second

const busConfig = `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path=%s</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
`

// privateBus starts a dbus-daemon of the test's own (no activatable services, so nothing but
// the test's fake can own the notification name) and returns its address. The daemon is
// killed when the test ends.
func privateBus(t *testing.T) string {
	t.Helper()
	daemon, err := exec.LookPath("dbus-daemon")
	if err != nil {
		t.Skip("dbus-daemon is not installed (apt-get install dbus-daemon): the D-Bus tests need a private bus")
	}
	dir := t.TempDir()
	conf := filepath.Join(dir, "bus.conf")
	if err := os.WriteFile(conf, fmt.Appendf(nil, busConfig, filepath.Join(dir, "bus")), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(daemon, "--config-file="+conf, "--nofork", "--nopidfile", "--print-address=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start dbus-daemon: %v", err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	// The daemon prints its address once it listens (or exits, which ends the read).
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("dbus-daemon printed no address: %v", err)
	}
	return strings.TrimSpace(line)
}

// notifyCall is one Notify call the fake server received.
type notifyCall struct {
	App      string
	Replaces uint32
	Icon     string
	Summary  string
	Body     string
	Actions  []string
	Hints    map[string]dbus.Variant
	Timeout  int32
	ID       uint32 // what the server answered
}

// fakeServer is an org.freedesktop.Notifications server on the test's bus. Its exported
// methods are the D-Bus methods (godbus exports those whose last result is *dbus.Error).
type fakeServer struct {
	conn   *dbus.Conn
	caps   []string
	calls  chan notifyCall
	closes chan uint32

	mu   sync.Mutex
	last uint32
}

// startServer connects a fake notification server to addr, advertising caps.
func startServer(t *testing.T, addr string, caps ...string) *fakeServer {
	t.Helper()
	conn, err := dbus.Connect(addr)
	if err != nil {
		t.Fatalf("fake server: connect: %v", err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	f := &fakeServer{conn: conn, caps: caps, calls: make(chan notifyCall, 100), closes: make(chan uint32, 100)}
	if err := conn.Export(f, ServicePath, ServiceName); err != nil {
		t.Fatal(err)
	}
	reply, err := conn.RequestName(ServiceName, dbus.NameFlagDoNotQueue)
	if err != nil || reply != dbus.RequestNameReplyPrimaryOwner {
		t.Fatalf("fake server: own %s: %v %v", ServiceName, reply, err)
	}
	return f
}

func (f *fakeServer) Notify(app string, replaces uint32, icon, summary, body string, actions []string,
	hints map[string]dbus.Variant, timeout int32) (uint32, *dbus.Error) {
	id := replaces
	if id == 0 {
		f.mu.Lock()
		f.last++
		id = f.last
		f.mu.Unlock()
	}
	f.calls <- notifyCall{App: app, Replaces: replaces, Icon: icon, Summary: summary, Body: body, Actions: actions,
		Hints: hints, Timeout: timeout, ID: id}
	return id, nil
}

func (f *fakeServer) CloseNotification(id uint32) *dbus.Error {
	f.closes <- id
	_ = f.conn.Emit(ServicePath, signalClosed, id, uint32(3)) // 3: closed by a call to CloseNotification
	return nil
}

func (f *fakeServer) GetCapabilities() ([]string, *dbus.Error) { return f.caps, nil }

// next waits for the next Notify call.
func (f *fakeServer) next(t *testing.T) notifyCall {
	t.Helper()
	return receive(t, f.calls, "a Notify call")
}

// receive waits for the next value on ch; what names it when none comes within guard.
func receive[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(guard):
		t.Fatalf("timed out waiting for %s", what)
	}
	panic("unreachable: Fatalf ends the test")
}

// noCall fails if a Notify call is waiting.
func (f *fakeServer) noCall(t *testing.T) {
	t.Helper()
	select {
	case c := <-f.calls:
		t.Fatalf("unexpected Notify call %+v", c)
	default:
	}
}

// nextClose waits for the next CloseNotification call.
func (f *fakeServer) nextClose(t *testing.T) uint32 {
	t.Helper()
	return receive(t, f.closes, "a CloseNotification call")
}

// click emits ActionInvoked(id, key), as a server does when the user clicks.
func (f *fakeServer) click(t *testing.T, id uint32, key string) {
	t.Helper()
	if err := f.conn.Emit(ServicePath, signalAction, id, key); err != nil {
		t.Fatal(err)
	}
}

// fakeClock moves only when told to; AfterFunc reports every timer it starts on scheduled.
type fakeClock struct {
	mu        sync.Mutex
	now       time.Time
	timers    []fakeTimer
	scheduled chan time.Duration
}

type fakeTimer struct {
	at time.Time
	f  func()
}

func newFakeClock() *fakeClock {
	return &fakeClock{now: time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC), scheduled: make(chan time.Duration, 100)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) AfterFunc(d time.Duration, f func()) {
	c.mu.Lock()
	c.timers = append(c.timers, fakeTimer{at: c.now.Add(d), f: f})
	c.mu.Unlock()
	c.scheduled <- d
}

// advance moves the clock by d and runs the timers that are due.
func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	var due []func()
	kept := c.timers[:0]
	for _, tm := range c.timers {
		if tm.at.After(c.now) {
			kept = append(kept, tm)
		} else {
			due = append(due, tm.f)
		}
	}
	c.timers = kept
	c.mu.Unlock()
	for _, f := range due {
		f()
	}
}

// waitScheduled waits for the next timer the Notifier starts and returns its delay.
func (c *fakeClock) waitScheduled(t *testing.T) time.Duration {
	t.Helper()
	return receive(t, c.scheduled, "the rate limit's timer")
}
