// Package notify shows desktop notifications through the freedesktop.org notification server
// (org.freedesktop.Notifications on the D-Bus session bus: GNOME, KDE, dunst, mako, xfce4-notifyd
// ...), for when an agent needs the user and the window is not focused.
//
// A Notifier keeps one notification per agentdesk session and updates it in place (replaces_id),
// at most once per Interval: an agent that asks ten permissions at once shows "Permission needed",
// then "10 permissions waiting", not ten popups. Clicking a notification calls Options.OnAction
// with its session. Without a session bus, or without a notification server on it, posting does
// nothing but log one line: nothing blocks (every bus call is bounded by Options.Timeout) and
// nothing panics. The package knows nothing of Wails or windows.
package notify

import (
	"sync"
	"time"

	"github.com/godbus/dbus/v5"
)

// Options configure a Notifier; the zero value of every field has a sensible default.
type Options struct {
	AppName      string // "agentdesk" when empty
	Icon         string // a file:// URI or an icon-theme name (see Icon); "" = none
	DesktopEntry string // the desktop-entry hint (the .desktop file's name without ".desktop"); "" = none
	// Address is the D-Bus address of the session bus; "" = SessionBusAddress() at first use.
	Address string
	// OnAction is called, on the Notifier's signal goroutine, with the session of a notification
	// the user clicked. It must not block for long.
	OnAction func(session string)
	// Logf receives the one line that says notifications are off, or failing (and why).
	Logf func(format string, args ...any)
	// Interval is the least time between two updates of one session's notification (2 s).
	Interval time.Duration
	// Timeout bounds connecting and every call to the bus (3 s).
	Timeout time.Duration
	Clock   Clock // the wall clock when nil
}

// Notifier posts and withdraws notifications. Its methods never block on the bus: one worker
// goroutine, started by New and ended by Close, makes every call in order.
type Notifier struct {
	opt  Options
	kick chan struct{} // capacity 1: the worker has something to do
	done chan struct{} // closed by Close
	gone chan struct{} // closed when the worker has returned

	mu       sync.Mutex
	slots    map[string]*slot  // by session
	owners   map[uint32]string // shown notification id → session, for ActionInvoked
	withdraw []uint32          // ids to close (the user has looked)
	closed   bool

	// Worker-only state.
	bus    *bus
	off    bool // no bus: posting does nothing
	warned bool // a failing call was logged already
}

// slot is the notification of one session.
type slot struct {
	id      uint32    // the server's id of the shown notification; 0 = none yet
	waiting int       // permissions asked since the user last looked
	text    text      // what it should say
	dirty   bool      // text is not shown yet
	next    time.Time // the earliest time of the next update (the rate limit)
	timed   bool      // a timer will kick the worker at next
}

// New starts a Notifier; the bus is connected at the first Post.
func New(opt Options) *Notifier {
	if opt.AppName == "" {
		opt.AppName = "agentdesk"
	}
	if opt.Logf == nil {
		opt.Logf = func(string, ...any) {}
	}
	if opt.OnAction == nil {
		opt.OnAction = func(string) {}
	}
	if opt.Interval <= 0 {
		opt.Interval = 2 * time.Second
	}
	if opt.Timeout <= 0 {
		opt.Timeout = 3 * time.Second
	}
	if opt.Clock == nil {
		opt.Clock = realClock{}
	}
	n := &Notifier{opt: opt, kick: make(chan struct{}, 1), done: make(chan struct{}), gone: make(chan struct{}),
		slots: map[string]*slot{}, owners: map[uint32]string{}}
	go n.run()
	return n
}

// Post shows m: it creates or updates the notification of m.Session, now or, when that was
// updated less than Interval ago, at the end of the interval (with whatever the session's
// latest message is by then). It returns at once; after Close it does nothing.
func (n *Notifier) Post(m Message) {
	n.mu.Lock()
	if n.closed {
		n.mu.Unlock()
		return
	}
	s := n.slots[m.Session]
	if s == nil {
		s = &slot{}
		n.slots[m.Session] = s
	}
	if m.Kind == Permission {
		s.waiting++
	} else {
		s.waiting = 0 // the turn ended: its permissions were answered or cancelled
	}
	s.text = render(m, s.waiting)
	s.dirty = true
	n.mu.Unlock()
	n.poke()
}

// Seen says the user is looking at agentdesk: every notification is withdrawn, updates not
// shown yet are dropped and the permission counts start again from zero.
func (n *Notifier) Seen() {
	n.mu.Lock()
	for session, s := range n.slots {
		if s.id != 0 {
			n.withdraw = append(n.withdraw, s.id)
			delete(n.owners, s.id)
		}
		delete(n.slots, session)
	}
	has := len(n.withdraw) > 0
	n.mu.Unlock()
	if has {
		n.poke()
	}
}

// Close ends the worker and closes the bus connection. It waits for a call in flight (at most
// Timeout); notifications already shown stay. Safe to call more than once.
func (n *Notifier) Close() {
	n.mu.Lock()
	if !n.closed {
		n.closed = true
		close(n.done)
	}
	n.mu.Unlock()
	<-n.gone
}

// poke wakes the worker; it never blocks.
func (n *Notifier) poke() {
	select {
	case n.kick <- struct{}{}:
	default:
	}
}

// run is the worker: every bus call happens here, in order.
func (n *Notifier) run() {
	defer close(n.gone)
	for {
		select {
		case <-n.done:
			if n.bus != nil {
				n.bus.close()
			}
			return
		case <-n.kick:
			n.flush()
		}
	}
}

// update is one Notify call to make.
type update struct {
	session string
	slot    *slot
	n       notification
}

// flush withdraws what Seen asked for and shows every session's text that is due; a text that
// is not due yet gets a timer that kicks the worker when it is.
func (n *Notifier) flush() {
	now := n.opt.Clock.Now()
	n.mu.Lock()
	withdraw := n.withdraw
	n.withdraw = nil
	var due []update
	for session, s := range n.slots {
		if !s.dirty {
			continue
		}
		if now.Before(s.next) {
			if !s.timed {
				s.timed = true
				n.opt.Clock.AfterFunc(s.next.Sub(now), func() {
					n.mu.Lock()
					s.timed = false
					n.mu.Unlock()
					n.poke()
				})
			}
			continue
		}
		s.dirty = false
		s.next = now.Add(n.opt.Interval)
		due = append(due, update{session: session, slot: s, n: notification{app: n.opt.AppName, icon: n.opt.Icon,
			desktopEntry: n.opt.DesktopEntry, replaces: s.id, text: s.text}})
	}
	n.mu.Unlock()
	if len(withdraw) == 0 && len(due) == 0 {
		return
	}
	b := n.connect()
	if b == nil {
		return
	}
	for _, id := range withdraw {
		if err := b.withdraw(id); err != nil {
			n.failed(err)
		}
	}
	for _, u := range due {
		id, err := b.notify(u.n)
		if err != nil {
			n.failed(err)
			continue
		}
		n.mu.Lock()
		if n.slots[u.session] == u.slot {
			if u.slot.id != id {
				delete(n.owners, u.slot.id)
			}
			u.slot.id = id
			n.owners[id] = u.session
		} else { // the user looked meanwhile: take it back
			n.withdraw = append(n.withdraw, id)
			n.poke()
		}
		n.mu.Unlock()
	}
}

// connect returns the bus, connecting first when needed; nil when notifications are off. A
// lost connection is dialled again; no bus at all turns notifications off for good.
func (n *Notifier) connect() *bus {
	if n.off {
		return nil
	}
	if n.bus != nil && n.bus.connected() {
		return n.bus
	}
	if n.bus != nil {
		n.bus.close()
		n.bus = nil
	}
	addr := n.opt.Address
	if addr == "" {
		addr = SessionBusAddress()
	}
	signals := make(chan *dbus.Signal, 16)
	b, err := dial(addr, n.opt.Timeout, signals)
	if err != nil {
		n.off = true
		n.opt.Logf("desktop notifications are off: %v", err)
		return nil
	}
	n.bus = b
	go n.listen(signals)
	return b
}

// failed logs the first failing call; later ones would only repeat it (typically: no
// notification server runs on the bus).
func (n *Notifier) failed(err error) {
	if n.warned {
		return
	}
	n.warned = true
	n.opt.Logf("desktop notification failed (later failures are not logged): %v", err)
}

// listen handles the server's signals until the connection closes: a click on one of our
// notifications calls OnAction; a closed one is forgotten.
func (n *Notifier) listen(signals <-chan *dbus.Signal) {
	for sig := range signals {
		if len(sig.Body) < 2 { // both signals carry (id, action key | reason)
			continue
		}
		id, ok := sig.Body[0].(uint32)
		if !ok {
			continue
		}
		switch sig.Name {
		case signalAction:
			key, _ := sig.Body[1].(string)
			n.mu.Lock()
			session, ours := n.owners[id]
			n.mu.Unlock()
			if ours && key == DefaultAction {
				n.opt.OnAction(session)
			}
		case signalClosed:
			n.mu.Lock()
			if session, ours := n.owners[id]; ours {
				delete(n.owners, id)
				if s := n.slots[session]; s != nil && s.id == id {
					s.id = 0 // the next update is a new notification
				}
			}
			n.mu.Unlock()
		}
	}
}
