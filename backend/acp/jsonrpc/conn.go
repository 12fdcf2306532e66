package jsonrpc

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"strconv"
	"sync"
	"sync/atomic"
)

// inboundQueue is how many decoded messages may wait for the inbound loop. When it is full the
// reader stops reading, which pushes back on the peer through its pipe: nothing is dropped and
// the connection stays up.
const inboundQueue = 1024

// ErrConnClosed is wrapped by every call that fails because the connection is gone; the wrapped
// cause says why (ErrPeerClosed, ErrLineTooLong, a read error, Close's cause).
var ErrConnClosed = errors.New("connection closed")

// ErrPeerClosed is the cause when the peer closed its output (EOF): an agent usually exited.
var ErrPeerClosed = errors.New("the peer closed its output")

// Direction says which way a message went, from our side.
type Direction string

// The two directions.
const (
	In  Direction = "in"  // read from the peer
	Out Direction = "out" // written to the peer
)

// Tap receives every message in and out as the exact bytes of its line (without the newline),
// in wire order per direction. It is called on the reading goroutine, or on the sender's as the
// message is queued for the writer (before Request.Reply, Start or Notify returns), and must not
// block and must not modify line. Each line is its own allocation, so it may be kept.
type Tap func(dir Direction, method string, line []byte)

type response struct {
	result json.RawMessage
	err    error
}

// Conn is one NDJSON JSON-RPC 2.0 peer over a reader and a writer. It is symmetric: the app uses
// it towards agents and the demo agent uses it towards the app. Safe for concurrent use.
// Three goroutines serve it: the reader (read.go), the inbound loop (loop) and the writer
// (outbound.go), which writes everything we send from one ordered queue; callers and pending
// calls wait on channels of their own.
type Conn struct {
	w       io.Writer
	handler Handler
	tap     Tap
	logf    func(format string, args ...any)

	out outbox

	nextID  atomic.Int64
	pmu     sync.Mutex
	pending map[string]chan response

	inbound chan *envelope
	ahead   readAhead // the bytes of the lines in inbound and being handled
	done    chan struct{}
	errOnce sync.Once
	err     error
	skipped atomic.Int64
	readErr error // why reading ended; written by the reader before its end marker
}

// Option configures a Conn.
type Option func(*Conn)

// WithTap journals every message; see Tap.
func WithTap(t Tap) Option { return func(c *Conn) { c.tap = t } }

// WithLogf sets where connection noise (skipped lines, late responses) goes; default log.Printf.
func WithLogf(f func(string, ...any)) Option { return func(c *Conn) { c.logf = f } }

// NewConn starts reading r at once, on its own goroutine, and handles what arrives with h on the
// inbound loop. Writes go to w. The connection ends when r reaches EOF or fails, or on Close.
func NewConn(r io.Reader, w io.Writer, h Handler, opts ...Option) *Conn {
	c := &Conn{
		w:       w,
		handler: h,
		logf:    log.Printf,
		pending: make(map[string]chan response),
		inbound: make(chan *envelope, inboundQueue),
		ahead:   newReadAhead(),
		done:    make(chan struct{}),
		out:     outbox{wake: make(chan struct{}, 1)},
	}
	for _, o := range opts {
		o(c)
	}
	go c.read(r)
	go c.loop()
	go c.writeLoop()
	return c
}

// Done is closed when the connection has ended; Err then says why.
func (c *Conn) Done() <-chan struct{} { return c.done }

// Err is nil while the connection is up, then the cause of its end.
func (c *Conn) Err() error {
	select {
	case <-c.done:
		return c.err
	default:
		return nil
	}
}

// Skipped counts lines that were not JSON-RPC messages (banners, debug prints) and were skipped.
func (c *Conn) Skipped() int64 { return c.skipped.Load() }

// Close ends the connection with cause and fails every pending call; what is still queued for
// the peer is dropped. It does not close the underlying streams; their owner (the process)
// does, which also ends a write the peer is not reading.
func (c *Conn) Close(cause error) {
	c.errOnce.Do(func() {
		c.err = cause
		close(c.done)
		c.pmu.Lock()
		pending := c.pending
		c.pending = map[string]chan response{}
		c.pmu.Unlock()
		for _, ch := range pending {
			ch <- response{err: fmt.Errorf("%w: %w", ErrConnClosed, cause)}
		}
	})
}

// Call sends a request and waits for its response, decoding the result into result (which may
// be nil): Start, then Wait.
func (c *Conn) Call(ctx context.Context, method string, params, result any) error {
	p, err := c.Start(method, params)
	if err != nil {
		return err
	}
	return p.Wait(ctx, result)
}

// Pending is a request that has been written and whose response has not been waited for.
type Pending struct {
	c      *Conn
	key    string
	method string
	ch     chan response
}

// Start writes a request and returns once it is on the wire, without waiting for the answer:
// for a caller that must order what it sends next after it (Stop's session/cancel after the
// turn's session/prompt). It waits only for the writer: what was queued before it (answers)
// goes first, and a peer that does not read holds it until the connection ends (see
// MaxQueuedMessages). Wait must be called for the result.
func (c *Conn) Start(method string, params any) (*Pending, error) {
	id := c.nextID.Add(1)
	p := &Pending{c: c, key: strconv.FormatInt(id, 10), method: method, ch: make(chan response, 1)}
	c.pmu.Lock()
	if c.Err() != nil {
		c.pmu.Unlock()
		return nil, fmt.Errorf("%w: %w", ErrConnClosed, c.err)
	}
	c.pending[p.key] = p.ch
	c.pmu.Unlock()

	ended, err := c.send(json.RawMessage(p.key), method, params)
	if err != nil && !ended {
		c.forget(p.key)
		return nil, err
	}
	// Ended while it was being written: the peer may have answered it before the end, and
	// Close failed it otherwise; Wait says which.
	return p, nil
}

// Wait waits for the response and decodes its result into result (which may be nil). ctx
// bounds only our wait: when it ends, Wait sends $/cancel_request for the request and returns
// ctx.Err(), and a late response is still read, journaled and discarded. An error response is
// returned as *Error; a dead connection as an error wrapping ErrConnClosed.
func (p *Pending) Wait(ctx context.Context, result any) error {
	select {
	case r := <-p.ch:
		if r.err != nil {
			return r.err
		}
		if result != nil && len(r.result) > 0 {
			if err := json.Unmarshal(r.result, result); err != nil {
				return fmt.Errorf("decode %s result: %w", p.method, err)
			}
		}
		return nil
	case <-ctx.Done():
		p.c.forget(p.key)
		// Tell the peer it may stop the work ($/cancel_request); its late answer is journaled and
		// dropped. Turns are never stopped this way: Stop sends session/cancel.
		_ = p.c.Notify(MethodCancelRequest, CancelRequestParams{RequestID: json.RawMessage(p.key)})
		return ctx.Err()
	}
}

// Notify sends a notification and returns once it is on the wire (see Start for the wait). It
// fails only when the connection or the writer is broken.
func (c *Conn) Notify(method string, params any) error {
	_, err := c.send(nil, method, params)
	return err
}

// send encodes a request or notification and sends it (see sendLine).
func (c *Conn) send(id json.RawMessage, method string, params any) (ended bool, err error) {
	raw, err := json.Marshal(params)
	if err != nil {
		return false, fmt.Errorf("encode %s params: %w", method, err)
	}
	line, err := json.Marshal(&envelope{JSONRPC: "2.0", ID: id, Method: method, Params: raw})
	if err != nil {
		return false, fmt.Errorf("encode message: %w", err)
	}
	return c.sendLine(method, line)
}

func (c *Conn) forget(key string) {
	c.pmu.Lock()
	delete(c.pending, key)
	c.pmu.Unlock()
}

func describe(method string) string {
	if method == "" {
		return "response"
	}
	return method
}

// loop is the single inbound loop: it handles every message in the order it was read.
func (c *Conn) loop() {
	for {
		var env *envelope
		select {
		case env = <-c.inbound:
		case <-c.done:
			return
		}
		switch {
		case env.Method == eofMethod:
			c.Close(c.readErr)
			return
		case env.bad != nil:
			c.refuse(env)
		case env.isResponse():
			c.deliver(env)
		case env.isNotification():
			c.handler.HandleNotification(env.Method, env.Params)
		case env.isRequest():
			c.handler.HandleRequest(&Request{ID: env.ID, Method: env.Method, Params: env.Params, conn: c})
		}
		c.ahead.handled(env.size)
	}
}

// refuse answers a request that does not decode with -32600, and fails the call a response that
// does not decode answers, both with the decoder's reason (see undecodable).
func (c *Conn) refuse(env *envelope) {
	what := "response"
	if env.bad.request {
		what = "request"
	}
	rpcErr := &Error{Code: CodeInvalidRequest, Message: "Invalid Request: the " + what + " does not decode: " + env.bad.err.Error()}
	c.logf("a %s with id %.40s does not decode: %v", what, env.ID, env.bad.err)
	if env.bad.request {
		(&Request{ID: env.ID, Method: env.Method, conn: c}).Reply(nil, rpcErr)
		return
	}
	env.Error = rpcErr
	c.deliver(env)
}

func (c *Conn) deliver(env *envelope) {
	key := string(bytes.TrimSpace(env.ID))
	c.pmu.Lock()
	ch, ok := c.pending[key]
	delete(c.pending, key)
	c.pmu.Unlock()
	if !ok {
		c.logf("response for unknown or abandoned request id %s", key)
		return
	}
	if env.Error != nil {
		ch <- response{err: env.Error}
		return
	}
	ch <- response{result: env.Result}
}
