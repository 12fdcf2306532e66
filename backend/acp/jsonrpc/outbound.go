package jsonrpc

import (
	"errors"
	"fmt"
	"sync"
	"time"
)

// MaxQueuedMessages and MaxQueuedBytes bound what may wait in the outbound queue for the peer to
// read it. The inbound loop never waits on a write: answers are queued and one writer goroutine
// writes them. A peer that stops reading while it goes on sending (requests pipelined without
// reading their answers) would grow that queue without end; past either bound the connection
// ends with ErrPeerNotReading instead. Both are far above what a peer that reads ever leaves
// waiting: at most some thousand requests of a connection are in flight (package acp's workers),
// and the bytes hold a few of the largest answers (a 64 MiB file).
const (
	MaxQueuedMessages = 2048
	MaxQueuedBytes    = 256 << 20
)

// ErrPeerNotReading is the cause of the end of a connection whose peer stopped reading its
// input while messages for it piled up past MaxQueuedMessages or MaxQueuedBytes.
var ErrPeerNotReading = errors.New("the peer stopped reading its input")

// outMsg is one line waiting for the writer. sent is nil for an answer (Request.Reply), which
// nobody waits for; a request or notification's sender waits on it for the write's outcome. A
// message without a line is Flush's mark: nothing is written, sent is told the writer got there.
type outMsg struct {
	method string
	line   []byte // without the newline
	sent   chan error
}

// outbox is the outbound queue: every message we send, in the order it was queued, written by
// one goroutine (writeLoop), so the wire order is the queue's order.
type outbox struct {
	mu    sync.Mutex
	queue []outMsg
	bytes int
	wake  chan struct{} // a token when the queue may have grown
}

// enqueue hands m to the Tap and queues it for the writer, or ends the connection when the
// queue would pass its bounds (ErrPeerNotReading). It never blocks on the peer. The Tap sees m
// here, on the sender's goroutine, in queue order (which is wire order): a sender that masks
// what the journal gets (package acp's secret replies) knows it is done when enqueue returns.
func (c *Conn) enqueue(m outMsg) error {
	ob := &c.out
	ob.mu.Lock()
	if err := c.Err(); err != nil {
		ob.mu.Unlock()
		return fmt.Errorf("%w: %w", ErrConnClosed, err)
	}
	if n, size := len(ob.queue)+1, ob.bytes+len(m.line); n > MaxQueuedMessages || size > MaxQueuedBytes {
		ob.mu.Unlock()
		c.Close(fmt.Errorf("%w: %d messages (%d KiB) were waiting for it to read them", ErrPeerNotReading, n, size>>10))
		return fmt.Errorf("%w: %w", ErrConnClosed, c.err)
	}
	if c.tap != nil && m.line != nil {
		c.tap(Out, m.method, m.line)
	}
	ob.queue = append(ob.queue, m)
	ob.bytes += len(m.line)
	ob.mu.Unlock()
	select {
	case ob.wake <- struct{}{}:
	default:
	}
	return nil
}

// next takes the first message off the queue; ok is false once the connection has ended.
func (c *Conn) next() (m outMsg, ok bool) {
	ob := &c.out
	for {
		ob.mu.Lock()
		if len(ob.queue) > 0 && c.Err() == nil {
			m = ob.queue[0]
			ob.queue[0] = outMsg{}
			ob.queue = ob.queue[1:]
			ob.bytes -= len(m.line)
			ob.mu.Unlock()
			return m, true
		}
		ob.mu.Unlock()
		select {
		case <-ob.wake:
		case <-c.done:
			return outMsg{}, false
		}
	}
}

// writeLoop is the only writer: it writes what is queued, in order, one line per message, until
// the connection ends. A write blocks as long as the peer does not read; what is queued
// meanwhile counts towards the bounds. What is still queued at the end is dropped: its senders
// see the end of the connection.
func (c *Conn) writeLoop() {
	for {
		m, ok := c.next()
		if !ok {
			return
		}
		var err error
		if m.line != nil {
			if _, err = c.w.Write(append(m.line, '\n')); err != nil {
				err = fmt.Errorf("write %s: %w", describe(m.method), err)
			}
		}
		switch {
		case m.sent != nil:
			m.sent <- err
		case err != nil:
			c.logf("%v", err)
		}
	}
}

// sendLine queues line and waits until it is written or the write failed (err). ended reports
// that the connection ended first, while line waited or was being written: whether the peer got
// it is unknown, and err wraps ErrConnClosed.
func (c *Conn) sendLine(method string, line []byte) (ended bool, err error) {
	sent := make(chan error, 1)
	if err := c.enqueue(outMsg{method: method, line: line, sent: sent}); err != nil {
		return false, err
	}
	select {
	case err := <-sent:
		return false, err
	case <-c.done:
		select {
		case err := <-sent: // written just before the end
			return false, err
		default:
			return true, fmt.Errorf("%w: %w", ErrConnClosed, c.err)
		}
	}
}

// Flush waits until everything queued before it has been written, at most timeout (a peer that
// does not read holds the writer), and reports whether it was. For an owner about to close the
// peer's input: the answers queued before (a session's "closing" and "cancelled" answers) reach
// the peer first.
func (c *Conn) Flush(timeout time.Duration) bool {
	sent := make(chan error, 1)
	if c.enqueue(outMsg{sent: sent}) != nil {
		return false
	}
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case <-sent:
		return true
	case <-c.done:
		return false
	case <-t.C:
		return false
	}
}
