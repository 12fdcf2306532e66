package acp

import (
	"sync"
	"sync/atomic"
	"time"
)

// CoalesceDelay is how long entry and chunk events may wait so that chunks of the same entry are
// merged into one event (fewer renders); urgent events flush the queue at once.
const CoalesceDelay = 30 * time.Millisecond

// queued is an event waiting in the pump. A chunk keeps its text in ev.Text until a second
// chunk of the same entry merges into it; then the text accumulates in buf, without quadratic
// copying.
type queued struct {
	ev  Event
	buf []byte
}

// pump is the unbounded, coalescing queue between a session and its Emitter. push never blocks;
// one goroutine delivers and assigns Seq. emitMu serialises delivery so flush (for Snapshot) and
// the goroutine never interleave. Lock order: Session.mu → pump.emitMu → pump.mu.
type pump struct {
	sessionID string
	out       Emitter
	logf      func(string, ...any)

	emitMu sync.Mutex
	seq    uint64 // guarded by emitMu

	mu     sync.Mutex
	queue  []queued
	urgent bool
	closed bool
	wake   chan struct{}
	done   chan struct{}
}

func newPump(sessionID string, out Emitter, logf func(string, ...any)) *pump {
	p := &pump{sessionID: sessionID, out: out, logf: logf, wake: make(chan struct{}, 1), done: make(chan struct{})}
	go p.run()
	return p
}

// lateEvents counts the events pushed after their session's pump closed (LateEvents).
var lateEvents atomic.Uint64

// LateEvents is how many events, in this process, a session produced after it was closed. Such
// an event reaches no one, so it is a bug in the engine: each is logged, and the package's tests
// fail when the count is not zero at their end.
func LateEvents() uint64 { return lateEvents.Load() }

// push queues e. A chunk for the same entry as the last queued chunk is merged into it. After
// close, e is reported (LateEvents, the log) and dropped.
func (p *pump) push(e Event) {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		lateEvents.Add(1)
		p.logf("session %s: %s event after the session was closed: dropped", p.sessionID, e.Kind)
		return
	}
	if n := len(p.queue); e.Kind == EventChunk && n > 0 {
		last := &p.queue[n-1]
		if last.ev.Kind == EventChunk && last.ev.EntryID == e.EntryID {
			if last.buf == nil { // the second chunk: from now on the text grows in buf
				last.buf = append(make([]byte, 0, 2*(len(last.ev.Text)+len(e.Text))), last.ev.Text...)
				last.ev.Text = ""
			}
			last.buf = append(last.buf, e.Text...)
			p.mu.Unlock()
			return
		}
	}
	p.queue = append(p.queue, queued{ev: e}) // a lone chunk keeps its string: no copy of a huge one
	if e.Kind != EventChunk && e.Kind != EventEntry {
		p.urgent = true
	}
	p.mu.Unlock()
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// run delivers queued events: at once when something urgent is queued, else after
// CoalesceDelay so that chunks can merge.
func (p *pump) run() {
	defer close(p.done)
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	for {
		<-p.wake
		p.mu.Lock()
		urgent, closed := p.urgent, p.closed
		p.mu.Unlock()
		if !urgent && !closed {
			timer.Reset(CoalesceDelay)
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

// flush emits everything queued now, in order. It returns false once the pump is closed and
// drained.
func (p *pump) flush() bool {
	p.emitMu.Lock()
	defer p.emitMu.Unlock()
	p.mu.Lock()
	batch := p.queue
	p.queue, p.urgent = nil, false
	closed := p.closed
	p.mu.Unlock()
	evs := make([]Event, 0, min(len(batch), MaxBatch))
	for i := range batch {
		ev := batch[i].ev
		if batch[i].buf != nil {
			ev.Text = string(batch[i].buf)
		}
		p.seq++
		ev.Seq, ev.SessionID = p.seq, p.sessionID
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
	select {
	case p.wake <- struct{}{}:
	default:
	}
	<-p.done
}

// flushSeq delivers everything queued and returns the Seq of the last delivered event. The
// caller holds Session.mu, so nothing new is queued meanwhile.
func (p *pump) flushSeq() uint64 {
	p.flush()
	p.emitMu.Lock()
	defer p.emitMu.Unlock()
	return p.seq
}
