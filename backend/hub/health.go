package hub

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// retryEvery is how often a failing history is tried again on its own: one attempt, not a loop
// that hammers a full disk.
const retryEvery = 15 * time.Second

// HistoryStatus says whether the history is being saved. HistoryHealth tells each change of
// it; the window passes it on to the page, the command line prints it.
type HistoryStatus struct {
	// Saving is false while writes fail; the live sessions keep running in memory.
	Saving bool `json:"saving"`
	// Problem says what failed and what to do; empty while Saving.
	Problem string `json:"problem,omitempty"`
	// Since is when writes started failing (unix ms); 0 while Saving.
	Since int64 `json:"since,omitempty"`
}

// HistoryHealth watches the history's writes. The store's error handler reports each failed
// write to it (Report); it tells the user once that saving stopped and what to do, tries again
// on its own every 15 s (and when asked: Retry), and tells when saving works again. A retry
// saves a whole copy of every live session, so what the failed writes lost comes back (the raw
// protocol journal of that time does not). Safe for concurrent use.
type HistoryHealth struct {
	after    func(time.Duration) <-chan time.Time
	now      func() time.Time
	describe func(error) string // words a failed write for its user

	mu      sync.Mutex
	flush   func(ctx context.Context) error // store.Writer.Flush
	resave  func()                          // Hub.Resave: queue a copy of each live session
	tell    func(HistoryStatus)             // called on a change, never with mu held
	status  HistoryStatus
	errs    uint64 // write errors reported so far
	spells  uint64 // times saving started failing: a retry loop serves one spell
	stopped bool
	done    chan struct{} // closed by close(): ends the retry loop
}

// NewHistoryHealth returns a health that only counts reports until Set wires it up (the
// store's error handler exists before the store, and the hub after it). describe words a
// failed write for the person the front end serves: it becomes HistoryStatus.Problem.
func NewHistoryHealth(describe func(error) string) *HistoryHealth {
	return &HistoryHealth{after: time.After, now: time.Now, describe: describe, status: HistoryStatus{Saving: true},
		flush: func(context.Context) error { return nil }, resave: func() {}, tell: func(HistoryStatus) {},
		done: make(chan struct{})}
}

// Set wires the store's Flush (store.Writer.Flush), the hub's Resave and where status changes
// go; tell is called on a change, on no lock of the health's, and must not block for long. A
// failure reported before Set (a write of a session that had just started) is told at once:
// none is only counted.
func (h *HistoryHealth) Set(flush func(context.Context) error, resave func(), tell func(HistoryStatus)) {
	h.mu.Lock()
	h.flush, h.resave, h.tell = flush, resave, tell
	st := h.status
	h.mu.Unlock()
	if !st.Saving {
		tell(st)
	}
}

// Report is the store's error handler (store.WithErrorHandler): it never blocks (it runs on
// the writer goroutine).
func (h *HistoryHealth) Report(err error) {
	h.mu.Lock()
	h.errs++
	if !h.status.Saving || h.stopped {
		h.mu.Unlock()
		return
	}
	h.status = HistoryStatus{Problem: h.describe(err), Since: h.now().UnixMilli()}
	h.spells++
	st, spell, tell := h.status, h.spells, h.tell
	h.mu.Unlock()
	go h.retryLoop(spell)
	tell(st)
}

// Status is the current status.
func (h *HistoryHealth) Status() HistoryStatus {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.status
}

// retryLoop tries again every retryEvery until saving works (also by a Retry the user asked
// for) or close.
func (h *HistoryHealth) retryLoop(spell uint64) {
	for {
		select {
		case <-h.after(retryEvery):
		case <-h.done:
			return
		}
		h.mu.Lock()
		over := h.status.Saving || h.spells != spell
		h.mu.Unlock()
		if over || h.Retry(context.Background()) == nil {
			return
		}
	}
}

// Retry writes the pending changes and a copy of every live session now. It returns nil when
// the history is saved (it then tells so, if it was failing), or the error that still stops
// it. It blocks until the writes finish or ctx ends.
func (h *HistoryHealth) Retry(ctx context.Context) error {
	h.mu.Lock()
	flush, resave, tell := h.flush, h.resave, h.tell
	h.mu.Unlock()
	_ = flush(ctx) // what was queued before: it may fail on rows a lost batch held
	h.mu.Lock()
	before := h.errs
	h.mu.Unlock()
	resave()
	err := flush(ctx)
	h.mu.Lock()
	if err == nil && h.errs != before {
		err = fmt.Errorf("history: a write failed while saving the copies")
	}
	if err != nil {
		h.mu.Unlock()
		return err
	}
	healed := !h.status.Saving
	h.status = HistoryStatus{Saving: true}
	h.mu.Unlock()
	if healed {
		tell(HistoryStatus{Saving: true})
	}
	return nil
}

// Close ends the retry loop; later reports are ignored (the front end is quitting).
func (h *HistoryHealth) Close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.stopped {
		h.stopped = true
		close(h.done)
	}
}
