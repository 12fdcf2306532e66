package acp

import (
	"bufio"
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

// MaxLineBytes is the only limit on a protocol line. Huge diffs and file contents arrive as one
// line, so it is far above anything real; a longer line ends the connection with ErrLineTooLong.
const MaxLineBytes = 256 << 20

// inboundQueue is how many decoded messages may wait for the inbound loop. When it is full the
// reader stops reading, which pushes back on the agent through its stdout pipe: nothing is
// dropped and the connection stays up.
const inboundQueue = 1024

// ErrLineTooLong ends a connection whose peer sent a line over MaxLineBytes.
var ErrLineTooLong = errors.New("protocol line longer than 256 MiB")

// ErrConnClosed is wrapped by every call that fails because the connection is gone; the wrapped
// cause says why (ErrPeerClosed, ErrLineTooLong, a read error, Close's cause).
var ErrConnClosed = errors.New("connection closed")

// ErrPeerClosed is the cause when the peer closed its output (EOF): it usually exited.
var ErrPeerClosed = errors.New("the agent closed its output")

// Direction says which way a message went, from our side.
type Direction string

const (
	In  Direction = "in"
	Out Direction = "out"
)

// Tap receives every message in and out as the exact bytes of its line (without the newline),
// in wire order per direction. It is called on the reading or writing goroutine and must not
// block and must not modify line. Each line is its own allocation, so it may be kept.
type Tap func(dir Direction, method string, line []byte)

// Handler receives what the peer sends. Both methods are called on the single inbound loop, in
// wire order, and must not block: work that waits (a person, the disk, a process) is handed to
// another goroutine, which answers through Request.Reply.
type Handler interface {
	HandleNotification(method string, params json.RawMessage)
	HandleRequest(req *Request)
}

// Request is one inbound request. Reply must be called exactly once; later calls are ignored
// and return false, so "answer once" holds whichever of the user, Stop or an exit comes first.
type Request struct {
	ID     json.RawMessage // echoed back byte for byte
	Method string
	Params json.RawMessage

	conn *Conn
	once sync.Once
}

// Reply answers the request with result, or with err when it is non-nil (an *RPCError is sent
// as is; any other error becomes -32603 with its text). It reports whether this call answered.
func (r *Request) Reply(result any, err error) bool {
	answered := false
	r.once.Do(func() {
		answered = true
		msg := envelope{JSONRPC: "2.0", ID: r.ID}
		if err != nil {
			var rpcErr *RPCError
			if !errors.As(err, &rpcErr) {
				rpcErr = &RPCError{Code: CodeInternalError, Message: err.Error()}
			}
			msg.Error = rpcErr
		} else {
			raw, mErr := json.Marshal(result)
			if mErr != nil {
				msg.Error = &RPCError{Code: CodeInternalError, Message: "encode result: " + mErr.Error()}
			} else {
				msg.Result = raw
			}
		}
		if wErr := r.conn.write("", &msg); wErr != nil {
			r.conn.logf("reply to %s: %v", r.Method, wErr)
		}
	})
	return answered
}

type response struct {
	result json.RawMessage
	err    error
}

// Conn is one NDJSON JSON-RPC 2.0 peer over a reader and a writer. It is symmetric: the app uses
// it towards agents and the demo agent uses it towards the app. Safe for concurrent use.
type Conn struct {
	w       io.Writer
	handler Handler
	tap     Tap
	logf    func(format string, args ...any)

	wmu sync.Mutex // one writer at a time; never held while waiting on anything else

	nextID  atomic.Int64
	pmu     sync.Mutex
	pending map[string]chan response

	inbound chan *envelope
	done    chan struct{}
	errOnce sync.Once
	err     error
	skipped atomic.Int64
	readErr error // why reading ended; written by the reader before its end marker
}

// ConnOption configures a Conn.
type ConnOption func(*Conn)

// WithTap journals every message; see Tap.
func WithTap(t Tap) ConnOption { return func(c *Conn) { c.tap = t } }

// WithLogf sets where connection noise (skipped lines, late responses) goes; default log.Printf.
func WithLogf(f func(string, ...any)) ConnOption { return func(c *Conn) { c.logf = f } }

// NewConn starts reading r at once, on its own goroutine, and handles what arrives with h on the
// inbound loop. Writes go to w. The connection ends when r reaches EOF or fails, or on Close.
func NewConn(r io.Reader, w io.Writer, h Handler, opts ...ConnOption) *Conn {
	c := &Conn{
		w:       w,
		handler: h,
		logf:    log.Printf,
		pending: make(map[string]chan response),
		inbound: make(chan *envelope, inboundQueue),
		done:    make(chan struct{}),
	}
	for _, o := range opts {
		o(c)
	}
	go c.read(r)
	go c.loop()
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

// Close ends the connection with cause and fails every pending call. It does not close the
// underlying streams; their owner (the process) does.
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
// turn's session/prompt). It blocks only on the write. Wait must be called for the result.
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

	if err := c.send(json.RawMessage(p.key), method, params); err != nil {
		c.forget(p.key)
		return nil, err
	}
	return p, nil
}

// Wait waits for the response and decodes its result into result (which may be nil). ctx
// bounds only our wait: when it ends, Wait sends $/cancel_request for the request and returns
// ctx.Err(), and a late response is still read, journaled and discarded. An error response is
// returned as *RPCError; a dead connection as an error wrapping ErrConnClosed.
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

// Notify sends a notification. It fails only when the connection or the writer is broken.
func (c *Conn) Notify(method string, params any) error {
	return c.send(nil, method, params)
}

func (c *Conn) send(id json.RawMessage, method string, params any) error {
	raw, err := json.Marshal(params)
	if err != nil {
		return fmt.Errorf("encode %s params: %w", method, err)
	}
	return c.write(method, &envelope{JSONRPC: "2.0", ID: id, Method: method, Params: raw})
}

func (c *Conn) forget(key string) {
	c.pmu.Lock()
	delete(c.pending, key)
	c.pmu.Unlock()
}

func (c *Conn) write(method string, msg *envelope) error {
	line, err := json.Marshal(msg)
	if err != nil {
		return fmt.Errorf("encode message: %w", err)
	}
	if err := c.Err(); err != nil {
		return fmt.Errorf("%w: %w", ErrConnClosed, err)
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if c.tap != nil {
		c.tap(Out, method, line)
	}
	line = append(line, '\n')
	if _, err := c.w.Write(line); err != nil {
		return fmt.Errorf("write %s: %w", describe(method), err)
	}
	return nil
}

func describe(method string) string {
	if method == "" {
		return "response"
	}
	return method
}

// read is the only reader. It splits lines, decodes envelopes and queues them in order.
func (c *Conn) read(r io.Reader) {
	br := bufio.NewReaderSize(r, 64<<10)
	var cause error
	for {
		line, err := readLine(br)
		if len(line) > 0 {
			if env := c.decode(line); env != nil {
				select {
				case c.inbound <- env:
				case <-c.done:
					return
				}
			}
		}
		if err != nil {
			cause = err
			break
		}
	}
	if errors.Is(cause, io.EOF) {
		cause = ErrPeerClosed
	}
	// Let the loop handle everything already read before failing pending calls, so a final
	// response that arrived just before EOF is still delivered. The send orders readErr's write
	// before the loop's read.
	c.readErr = cause
	select {
	case c.inbound <- &envelope{Method: "\x00eof"}:
	case <-c.done:
	}
}

// readLine returns one line without its "\n" or trailing "\r", in memory of its own that
// nothing changes afterwards (decode lets values share it). A line may be as long as
// MaxLineBytes: its pieces are kept apart and joined once, in one allocation of the line's
// size (appending them as they come grew a 50 MB line through some 290 MB of copies).
func readLine(br *bufio.Reader) ([]byte, error) {
	var parts [][]byte
	n := 0
	for {
		frag, err := br.ReadSlice('\n')
		if n+len(frag) > MaxLineBytes {
			return nil, ErrLineTooLong
		}
		if err == bufio.ErrBufferFull {
			parts = append(parts, bytes.Clone(frag)) // frag is the reader's buffer: copy it now
			n += len(frag)
			continue
		}
		line := make([]byte, 0, n+len(frag))
		for _, p := range parts {
			line = append(line, p...)
		}
		line = append(line, frag...)
		return bytes.TrimRight(line, "\r\n"), err
	}
}

func (c *Conn) decode(line []byte) *envelope {
	trimmed := bytes.TrimSpace(line)
	if len(trimmed) == 0 {
		return nil
	}
	var w wireEnvelope
	err := json.Unmarshal(trimmed, &w)
	env := &envelope{JSONRPC: w.JSONRPC, ID: json.RawMessage(w.ID), Method: w.Method,
		Params: json.RawMessage(w.Params), Result: json.RawMessage(w.Result), Error: w.Error}
	if err != nil || (env.Method == "" && len(env.ID) == 0) {
		c.skipped.Add(1)
		if c.tap != nil {
			c.tap(In, "", trimmed)
		}
		c.logf("skipped a line that is not a JSON-RPC message (%d bytes): %.120q", len(trimmed), trimmed)
		return nil
	}
	if c.tap != nil {
		c.tap(In, env.Method, trimmed)
	}
	return env
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
		case env.Method == "\x00eof":
			c.Close(c.readErr)
			return
		case env.isResponse():
			c.deliver(env)
		case env.isNotification():
			c.handler.HandleNotification(env.Method, env.Params)
		case env.isRequest():
			c.handler.HandleRequest(&Request{ID: env.ID, Method: env.Method, Params: env.Params, conn: c})
		}
	}
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
