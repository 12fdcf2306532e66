package store

import (
	"context"
	"database/sql"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// Writer is the only write path while sessions run. Its recording methods (CreateSession,
// StartTurn, UpsertEntry, AppendText, Message...) never block on the database and never fail:
// they queue an operation and return. One goroutine applies the queue in call order, in
// batches of one transaction each. Failures reach the error handler and the next Flush.
// A Writer is safe for concurrent use; operations from one goroutine keep their order.
//
// The goroutine runs at a lower CPU priority than the rest of the process (on Linux, its own
// thread at nice +10; see writer_priority_linux.go): saving is batched and can wait a little,
// the page and the protocol reader cannot. When the CPU is short, batches grow instead, and so
// does what a crash of the process could lose.
type Writer struct {
	db       *sql.DB
	now      func() time.Time
	maxDelay time.Duration
	maxOps   int
	onError  func(error)
	onCommit func(ops int)

	wake   chan struct{} // capacity 1: "look at the queue again"
	exited chan struct{} // closed when the goroutine returns
	thread atomic.Int64  // the goroutine's OS thread id once lowered in priority (Linux), else 0

	mu       sync.Mutex
	queue    []op // ops from head on are queued; take moves head instead of the rest
	head     int
	firstAt  time.Time // when the oldest queued op was queued
	queued   uint64    // ops ever queued
	taken    uint64    // ops ever taken into a batch
	finished uint64    // ops whose batch has finished (committed or failed)
	urgentTo uint64    // commit without delay until taken reaches this
	waiters  []*flushWaiter
	closed   bool

	spare []op // the goroutine's recycled batch slice
}

// flushWaiter is one Flush (or Close) waiting for ops up to upTo to finish.
type flushWaiter struct {
	upTo uint64
	err  error // first batch error seen while waiting
	done chan struct{}
}

func newWriter(db *sql.DB, cfg config) *Writer {
	w := &Writer{db: db, now: cfg.now, maxDelay: cfg.maxDelay, maxOps: cfg.maxOps,
		onError: cfg.onError, onCommit: cfg.onCommit,
		wake: make(chan struct{}, 1), exited: make(chan struct{})}
	go w.run()
	return w
}

// enqueue appends o, or reports it dropped after Close.
func (w *Writer) enqueue(o op, urgent bool) {
	if !w.tryEnqueue(o, urgent) {
		w.onError(fmt.Errorf("history: %s dropped: %w", o, ErrClosed))
	}
}

// tryEnqueue appends o unless the writer is closed. Urgent ops (turn ends, outcomes, deletes)
// are committed without waiting for the batch delay.
func (w *Writer) tryEnqueue(o op, urgent bool) bool {
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return false
	}
	if w.pending() == 0 {
		w.firstAt = time.Now()
	}
	w.queue = append(w.queue, o)
	w.queued++
	if urgent {
		w.urgentTo = w.queued
	}
	kick := urgent || w.pending() == 1 || w.pending() == w.maxOps
	w.mu.Unlock()
	if kick {
		w.kick()
	}
	return true
}

func (w *Writer) kick() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// Flush blocks until every operation queued before the call has been committed (or has
// failed), or ctx is done. It makes the writer commit at once instead of waiting for the
// batch delay. It returns the first write error of those batches, or ctx's error.
// It returns nil at once if nothing is pending, including after Close.
// It must not be called from the error handler.
func (w *Writer) Flush(ctx context.Context) error {
	fw := w.addWaiter()
	if fw == nil {
		return nil
	}
	select {
	case <-fw.done:
		return fw.err
	case <-ctx.Done():
		return fmt.Errorf("flush history: %w", ctx.Err())
	}
}

// addWaiter registers a waiter for everything queued so far, or returns nil if it is all done.
func (w *Writer) addWaiter() *flushWaiter {
	w.mu.Lock()
	if w.finished == w.queued {
		w.mu.Unlock()
		return nil
	}
	fw := &flushWaiter{upTo: w.queued, done: make(chan struct{})}
	w.waiters = append(w.waiters, fw)
	w.urgentTo = max(w.urgentTo, w.queued)
	w.mu.Unlock()
	w.kick()
	return fw
}

// close stops accepting ops, commits what is queued, stops the goroutine and returns the
// first error of those last batches. Only Store.Close calls it (once).
func (w *Writer) close() error {
	fw := w.addWaiter()
	w.mu.Lock()
	w.closed = true
	w.mu.Unlock()
	w.kick()
	<-w.exited
	if fw == nil {
		return nil
	}
	return fw.err
}

// run is the writer goroutine: wait for a reason to commit, take a batch, commit it, repeat.
func (w *Writer) run() {
	w.thread.Store(int64(lowerPriority()))
	defer close(w.exited)
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	for {
		w.mu.Lock()
		n := w.pending()
		if n == 0 {
			closed := w.closed
			w.mu.Unlock()
			if closed {
				return
			}
			<-w.wake
			continue
		}
		ready := w.urgentTo > w.taken || n >= w.maxOps || w.closed
		if wait := w.maxDelay - time.Since(w.firstAt); !ready && wait > 0 {
			w.mu.Unlock()
			timer.Reset(wait)
			select {
			case <-w.wake:
			case <-timer.C:
			}
			timer.Stop()
			continue
		}
		batch := w.take(min(n, w.maxOps))
		end := w.taken
		w.mu.Unlock()

		err := w.commit(batch)

		w.mu.Lock()
		w.finished = end
		kept := w.waiters[:0]
		for _, fw := range w.waiters {
			if fw.err == nil {
				fw.err = err
			}
			if fw.upTo <= end {
				close(fw.done)
			} else {
				kept = append(kept, fw)
			}
		}
		clear(w.waiters[len(kept):])
		w.waiters = kept
		w.mu.Unlock()

		clear(batch) // drop references to entry bodies and texts
		w.spare = batch[:0]
		if w.onCommit != nil {
			w.onCommit(len(batch))
		}
	}
}

// pending is how many ops are queued; w.mu is held.
func (w *Writer) pending() int { return len(w.queue) - w.head }

// take removes the first k ops from the queue; w.mu is held. It copies the k ops, not the
// ops left behind: a flood queues a million chunks ahead of the writer, and moving them all
// up once per batch of 2000 cost time quadratic in the backlog. The dead front of the array
// is dropped once it is half of it, which costs each op one more copy at most.
func (w *Writer) take(k int) []op {
	var batch []op
	if w.head == 0 && k == len(w.queue) {
		batch, w.queue = w.queue, w.spare
	} else {
		batch = append(w.spare, w.queue[w.head:w.head+k]...)
		clear(w.queue[w.head : w.head+k])
		w.head += k
		if w.head == len(w.queue) || w.head > len(w.queue)/2 {
			rest := copy(w.queue, w.queue[w.head:])
			clear(w.queue[rest:])
			w.queue, w.head = w.queue[:rest], 0
		}
	}
	w.spare = nil
	w.taken += uint64(k)
	return batch
}
