package acp

import (
	"cmp"
	"sync"
	"sync/atomic"
	"time"
)

// CoalesceDelay is how long entry and chunk events may wait so that chunks of the same entry are
// merged into one event (fewer renders); urgent events flush the queue at once.
const CoalesceDelay = 30 * time.Millisecond

// OffScreenCoalesceDelay is CoalesceDelay for a session no one is looking at (Session.SetOnScreen):
// the page folds its events without showing them, so they may wait longer and come in fewer,
// bigger batches, which are cheaper to send, fold and save. Urgent events still go at once.
// With four agents streaming, the page's main thread did a third less work.
const OffScreenCoalesceDelay = 250 * time.Millisecond

// queued is an event waiting in the pump, or a checkpoint (mark) to run between two events. A
// chunk keeps its text in ev.Text until a second chunk of the same entry merges into it; then
// the text accumulates in buf, without quadratic copying.
type queued struct {
	ev   Event
	buf  []byte
	mark *mark
}

// mark is a Checkpoint waiting in the pump's queue: fn runs with snap once every event before it
// has been emitted and before any after it is; done is closed then.
type mark struct {
	snap Snapshot
	fn   func(Snapshot)
	done chan struct{}
}

// pump is the unbounded, coalescing queue between a session and its Emitter. push never blocks
// and numbers the event (Seq) as it queues it, so the state the session holds when it pushes is
// exactly the fold of events 1..Seq: a snapshot needs only that number (at), never a flush. One
// goroutine (run) delivers, in Seq order; the Emitter is never called with a lock held.
//
// Coalescing never crosses a number a snapshot has seen: at seals the last queued event, so a
// chunk pushed after the snapshot starts an event of its own instead of growing one the
// snapshot already holds (a page drops events up to its snapshot's Seq).
//
// Lock order: Session.mu → pump.mu. Nothing waits for the goroutine with either held.
type pump struct {
	sessionID string
	out       Emitter
	logf      func(string, ...any)

	mu    sync.Mutex
	queue []queued
	seq   uint64 // Seq of the last event queued
	// childSeqs: the Seq of the last event queued of each child session (a subagent), whose
	// events this pump delivers too, numbered apart (pushChild).
	childSeqs map[string]uint64
	sealed    bool          // the last queued event is in a snapshot: nothing merges into it
	delay     time.Duration // CoalesceDelay, or offDelay off screen (setOnScreen)
	offDelay  time.Duration // OffScreenCoalesceDelay; tests lengthen it
	urgent    bool
	closed    bool
	wake      chan struct{}
	done      chan struct{} // closed when run has delivered everything and returned
}

func newPump(sessionID string, out Emitter, logf func(string, ...any)) *pump {
	p := &pump{sessionID: sessionID, out: out, logf: logf, delay: CoalesceDelay, offDelay: OffScreenCoalesceDelay, wake: make(chan struct{}, 1), done: make(chan struct{})}
	go p.run()
	return p
}

// lateEvents counts the events pushed after their session's pump closed (LateEvents).
var lateEvents atomic.Uint64

// LateEvents is how many events, in this process, a session produced after it was closed. Such
// an event reaches no one, so it is a bug in the engine: each is logged, and the package's tests
// fail when the count is not zero at their end.
func LateEvents() uint64 { return lateEvents.Load() }

// push numbers e and queues it. A chunk for the same entry as the last queued event, a chunk not
// sealed by a snapshot, is merged into it and takes no number. After close, e is reported
// (LateEvents, the log) and dropped.
func (p *pump) push(e Event) { p.enqueue(e) }

// pushChild numbers e in the stream of the child session id (a subagent, whose parent is
// parentID): its own Seq from 1, delivered by this pump's goroutine in order with the session's
// own events, so the Emitter still sees one goroutine and a child's card before its events.
func (p *pump) pushChild(id, parentID string, e Event) {
	e.SessionID, e.ParentID = id, parentID
	p.enqueue(e)
}

// enqueue is push: e.SessionID set names a child's stream, else e is the session's.
func (p *pump) enqueue(e Event) {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		lateEvents.Add(1)
		p.logf("session %s: %s event after the session was closed: dropped", p.sessionID, e.Kind)
		return
	}
	if n := len(p.queue); e.Kind == EventChunk && n > 0 && !p.sealed {
		last := &p.queue[n-1]
		if last.mark == nil && last.ev.Kind == EventChunk && last.ev.EntryID == e.EntryID && last.ev.SessionID == cmp.Or(e.SessionID, p.sessionID) {
			if last.buf == nil { // the second chunk: from now on the text grows in buf
				last.buf = append(make([]byte, 0, 2*(len(last.ev.Text)+len(e.Text))), last.ev.Text...)
				last.ev.Text = ""
			}
			last.buf = append(last.buf, e.Text...)
			p.mu.Unlock()
			return
		}
	}
	if e.SessionID != "" {
		if p.childSeqs == nil {
			p.childSeqs = map[string]uint64{}
		}
		p.childSeqs[e.SessionID]++
		e.Seq = p.childSeqs[e.SessionID]
	} else {
		p.seq++
		e.Seq, e.SessionID = p.seq, p.sessionID
	}
	p.queue = append(p.queue, queued{ev: e}) // a lone chunk keeps its string: no copy of a huge one
	p.sealed = false
	if e.Kind != EventChunk && e.Kind != EventEntry {
		p.urgent = true
	}
	p.mu.Unlock()
	p.poke()
}

// at returns the Seq of the last event queued and seals it: the caller (a snapshot, holding
// Session.mu) has its state up to and including that event.
func (p *pump) at() uint64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.sealed = true
	return p.seq
}

// checkpoint queues fn to run with snap on the delivering goroutine, right after the event
// snap.Seq (see mark); the caller holds Session.mu and took snap with at. It returns the mark,
// or nil once the pump is closed.
func (p *pump) checkpoint(snap Snapshot, fn func(Snapshot)) *mark {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil
	}
	m := &mark{snap: snap, fn: fn, done: make(chan struct{})}
	p.queue = append(p.queue, queued{mark: m})
	p.urgent = true
	p.mu.Unlock()
	p.poke()
	return m
}

// setOnScreen sets how long entries and chunks wait (CoalesceDelay on screen,
// OffScreenCoalesceDelay off). Coming on screen delivers what waits at once.
func (p *pump) setOnScreen(on bool) {
	p.mu.Lock()
	p.delay = p.offDelay
	if on {
		p.delay = CoalesceDelay
		p.urgent = p.urgent || len(p.queue) > 0
	}
	p.mu.Unlock()
	p.poke()
}

// onScreen reports whether entries and chunks wait CoalesceDelay (setOnScreen).
func (p *pump) onScreen() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.delay == CoalesceDelay
}

func (p *pump) poke() {
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// run delivers queued events: at once when something urgent is queued, else after
// CoalesceDelay (OffScreenCoalesceDelay off screen) so that chunks can merge.
func (p *pump) run() {
	defer close(p.done)
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	for {
		<-p.wake
		p.mu.Lock()
		urgent, closed, delay := p.urgent, p.closed, p.delay
		p.mu.Unlock()
		if !urgent && !closed {
			timer.Reset(delay)
		wait:
			for {
				select {
				case <-timer.C:
					break wait
				case <-p.wake:
					if p.isUrgent() {
						timer.Stop()
						break wait
					}
				}
			}
		}
		if !p.flush() {
			return
		}
	}
}

func (p *pump) isUrgent() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.urgent || p.closed
}

// flush emits everything queued now, in order, in batches of at most MaxBatch, and runs the
// checkpoints between them. Only run calls it. It returns false once the pump is closed and
// drained.
func (p *pump) flush() bool {
	p.mu.Lock()
	batch := p.queue
	p.queue, p.urgent = nil, false
	closed := p.closed
	p.mu.Unlock()
	evs := make([]Event, 0, min(len(batch), MaxBatch))
	for i := range batch {
		if m := batch[i].mark; m != nil {
			if len(evs) > 0 {
				EmitAll(p.out, evs)
				evs = evs[:0]
			}
			m.fn(m.snap)
			close(m.done)
			continue
		}
		ev := batch[i].ev
		if batch[i].buf != nil {
			ev.Text = string(batch[i].buf)
		}
		evs = append(evs, ev)
		if len(evs) == MaxBatch {
			EmitAll(p.out, evs)
			evs = evs[:0]
		}
	}
	if len(evs) > 0 {
		EmitAll(p.out, evs)
	}
	return !closed
}

// close delivers what is queued and stops the goroutine; later pushes are dropped.
func (p *pump) close() {
	p.mu.Lock()
	p.closed = true
	p.mu.Unlock()
	p.poke()
	<-p.done
}
