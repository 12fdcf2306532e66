package acp

import (
	"fmt"
	"sync"

	"agentdesk/backend/acp/jsonrpc"
	"agentdesk/backend/acp/schema"
)

// How many of one connection's fs/* and terminal/create requests run at once, and how many more
// may wait for their turn. An agent may send any number: a request beyond both is answered at
// once with errBusy rather than queued, so neither goroutines, OS threads nor memory grow with
// what an agent sends. Real agents keep a handful in flight. Answers never wait for the agent to
// read them: they are queued for the connection's writer, and an agent that sends without
// reading is stopped once that queue passes its bound (jsonrpc.MaxQueuedMessages).
const (
	maxRunning = 16
	maxWaiting = 1024
)

// errClosing answers a request the session will not serve because it is closing.
var errClosing = &jsonrpc.Error{Code: schema.CodeInternalError, Message: "the session is closing"}

// errBusy answers a request that finds every worker busy and the queue full.
var errBusy = &jsonrpc.Error{Code: schema.CodeInternalError, Message: fmt.Sprintf(
	"agentdesk is busy: %d file and terminal requests of this session are running and %d are waiting; send it again once some are answered",
	maxRunning, maxWaiting)}

// workers run the requests of one connection that do I/O or start processes, off the inbound
// loop, at most maxRunning at a time and in the order they came. Every request submitted is
// answered exactly once: with its result, errBusy, or errClosing once shut.
type workers struct {
	mu      sync.Mutex
	queue   []job
	running int
	shut    bool
	idle    chan struct{} // closed once shut and nothing runs
}

// job is a request and what answers it.
type job struct {
	req *jsonrpc.Request
	run func() (any, error)
}

func newWorkers() *workers { return &workers{idle: make(chan struct{})} }

// submit runs run for req on a worker, now or when one is free, and replies with its result. It
// never blocks: it runs on the inbound loop.
func (w *workers) submit(req *jsonrpc.Request, run func() (any, error)) {
	w.mu.Lock()
	switch {
	case w.shut:
		w.mu.Unlock()
		req.Reply(nil, errClosing)
	case w.running < maxRunning:
		w.running++
		w.mu.Unlock()
		go w.work(job{req, run})
	case len(w.queue) >= maxWaiting:
		w.mu.Unlock()
		req.Reply(nil, errBusy)
	default:
		w.queue = append(w.queue, job{req, run})
		w.mu.Unlock()
	}
}

// work runs j, then whatever waits, and ends when nothing does.
func (w *workers) work(j job) {
	for {
		j.req.Reply(j.run())
		w.mu.Lock()
		if len(w.queue) == 0 {
			w.running--
			if w.shut && w.running == 0 {
				close(w.idle)
			}
			w.mu.Unlock()
			return
		}
		j = w.queue[0]
		w.queue[0] = job{}
		w.queue = w.queue[1:]
		w.mu.Unlock()
	}
}

// close answers every waiting request errClosing, refuses later ones, and returns without
// waiting for those running (see wait). Safe to call more than once.
func (w *workers) close() {
	w.mu.Lock()
	if w.shut {
		w.mu.Unlock()
		return
	}
	w.shut = true
	waiting := w.queue
	w.queue = nil
	if w.running == 0 {
		close(w.idle)
	}
	w.mu.Unlock()
	for _, j := range waiting {
		j.req.Reply(nil, errClosing)
	}
}

// wait closes w and returns once every request it ran has been answered.
func (w *workers) wait() {
	w.close()
	<-w.idle
}
