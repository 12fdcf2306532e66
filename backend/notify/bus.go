package notify

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	// godbus is the standard pure-Go D-Bus library (no libdbus, no cgo), well kept and already
	// in our module graph through Wails (its single-instance lock on Linux); the notification
	// spec is a plain D-Bus API, so this is all we need to speak it.
	"github.com/godbus/dbus/v5"
)

// The freedesktop.org Desktop Notifications service (specifications.freedesktop.org/notification-spec).
const (
	// ServiceName is the well-known bus name (and interface) of the notification server.
	ServiceName = "org.freedesktop.Notifications"
	// ServicePath is the server's object path.
	ServicePath dbus.ObjectPath = "/org/freedesktop/Notifications"

	methodNotify       = ServiceName + ".Notify"
	methodClose        = ServiceName + ".CloseNotification"
	methodCapabilities = ServiceName + ".GetCapabilities"
	signalAction       = ServiceName + ".ActionInvoked"
	signalClosed       = ServiceName + ".NotificationClosed"

	// DefaultAction is the action key the server invokes when the notification itself is clicked.
	DefaultAction = "default"
)

// ErrNoBus means there is no D-Bus session bus to talk to (no desktop session, plain Xvfb).
var ErrNoBus = errors.New("no D-Bus session bus ($DBUS_SESSION_BUS_ADDRESS is empty and $XDG_RUNTIME_DIR/bus does not exist)")

// SessionBusAddress is the address of the user's session bus: $DBUS_SESSION_BUS_ADDRESS, else
// the systemd user bus socket $XDG_RUNTIME_DIR/bus when it exists, else "". Unlike godbus's
// ConnectSessionBus it never autolaunches a bus (dbus-launch) that would outlive agentdesk.
func SessionBusAddress() string {
	if addr := os.Getenv("DBUS_SESSION_BUS_ADDRESS"); addr != "" {
		return addr
	}
	if dir := os.Getenv("XDG_RUNTIME_DIR"); dir != "" {
		path := filepath.Join(dir, "bus")
		if st, err := os.Stat(path); err == nil && st.Mode()&os.ModeSocket != 0 {
			return "unix:path=" + path
		}
	}
	return ""
}

// bus is a connection to the session bus, used only by the Notifier's worker goroutine
// (method calls) and its signal listener.
type bus struct {
	conn    *dbus.Conn
	cancel  context.CancelFunc // ends the connection's context
	timeout time.Duration      // bounds every call
	caps    []string           // the server's capabilities; nil until it answered GetCapabilities
}

// dial connects and authenticates to the bus at addr ("" means there is none: ErrNoBus) and
// subscribes to the notification server's signals, which arrive on signals. It gives up after
// timeout, so a bus that accepts but never answers cannot hang the caller.
func dial(addr string, timeout time.Duration, signals chan<- *dbus.Signal) (*bus, error) {
	if addr == "" {
		return nil, ErrNoBus
	}
	// The connection's context lives as long as the connection: a timer cancels it (closing the
	// socket, which fails a stuck Auth or Hello) only while connecting.
	ctx, cancel := context.WithCancel(context.Background())
	timer := time.AfterFunc(timeout, cancel)
	conn, err := dbus.Connect(addr, dbus.WithContext(ctx))
	if !timer.Stop() && err == nil {
		err = context.DeadlineExceeded
		_ = conn.Close()
	}
	if err != nil {
		cancel()
		if errors.Is(err, context.DeadlineExceeded) || ctx.Err() != nil {
			return nil, fmt.Errorf("session bus %s did not answer within %s", addr, timeout)
		}
		return nil, fmt.Errorf("session bus %s: %w", addr, err)
	}
	b := &bus{conn: conn, cancel: cancel, timeout: timeout}
	callCtx, done := context.WithTimeout(context.Background(), timeout)
	defer done()
	// Only the server's own signals: the bus resolves the well-known sender to its owner.
	err = conn.AddMatchSignalContext(callCtx, dbus.WithMatchSender(ServiceName),
		dbus.WithMatchObjectPath(ServicePath), dbus.WithMatchInterface(ServiceName))
	if err != nil {
		b.close()
		return nil, fmt.Errorf("subscribe to %s signals: %w", ServiceName, err)
	}
	conn.Signal(signals)
	return b, nil
}

// close closes the connection; the signal channel is closed with it.
func (b *bus) close() {
	_ = b.conn.Close()
	b.cancel()
}

// connected reports whether the connection still works.
func (b *bus) connected() bool { return b.conn.Connected() }

// call calls a method of the notification server, bounded by b.timeout.
func (b *bus) call(method string, out []any, args ...any) error {
	ctx, cancel := context.WithTimeout(context.Background(), b.timeout)
	defer cancel()
	obj := b.conn.Object(ServiceName, ServicePath)
	if err := obj.CallWithContext(ctx, method, 0, args...).Store(out...); err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	return nil
}

// markup reports whether the server renders body markup, asking it once (a server that does
// not answer is taken not to, and is asked again next time).
func (b *bus) markup() bool {
	if b.caps == nil {
		var caps []string
		if err := b.call(methodCapabilities, []any{&caps}); err != nil {
			return false
		}
		b.caps = append(caps[:0:0], caps...)
	}
	return slices.Contains(b.caps, "body-markup")
}

// notification is one Notify call.
type notification struct {
	app, icon, desktopEntry string
	replaces                uint32 // the id to update in place; 0 = a new notification
	text                    text
}

// notify shows n and returns the id the server gave it.
func (b *bus) notify(n notification) (uint32, error) {
	body := n.text.body
	if b.markup() {
		body = escapeMarkup(body)
	}
	hints := map[string]dbus.Variant{
		"urgency": dbus.MakeVariant(byte(1)), // normal
	}
	if n.desktopEntry != "" {
		hints["desktop-entry"] = dbus.MakeVariant(n.desktopEntry)
	}
	actions := []string{DefaultAction, "Show"}
	var id uint32
	err := b.call(methodNotify, []any{&id},
		n.app, n.replaces, n.icon, n.text.summary, body, actions, hints, int32(-1))
	return id, err
}

// withdraw closes notification id (it may be gone already: the server then answers with an
// error, which does not matter).
func (b *bus) withdraw(id uint32) error {
	return b.call(methodClose, nil, id)
}
