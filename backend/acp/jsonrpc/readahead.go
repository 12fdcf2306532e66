package jsonrpc

import "sync/atomic"

// MaxReadAheadBytes bounds how far the reader reads ahead of the inbound loop: once the lines
// read and not yet handled hold this much, it reads the next line only when the loop has
// handled some. A line of any length (up to MaxLineBytes) is still read whole, alone if need
// be; what the bound stops is a peer sending huge lines faster than they are handled, each held
// in memory while waiting (up to inboundQueue of them). The bytes hold thousands of ordinary
// messages, so a flood never waits for it.
const MaxReadAheadBytes = 4 << 20

// readAhead counts the bytes of the lines queued for the inbound loop and not yet handled. The
// reader adds a line as it queues it and waits for room before reading the next; the loop
// takes a line off once it has handled it and wakes the reader when that makes room.
type readAhead struct {
	bytes  atomic.Int64
	room   chan struct{} // one token: the bytes fell under the bound since the reader looked
	onWait func()        // tests: the reader is about to wait
}

func newReadAhead() readAhead { return readAhead{room: make(chan struct{}, 1)} }

// queued counts a line of n bytes the reader is about to queue.
func (r *readAhead) queued(n int) { r.bytes.Add(int64(n)) }

// handled takes off a line of n bytes the loop has handled, waking the reader if that made
// room. Only the fall under the bound wakes it: the reader waits only above it.
func (r *readAhead) handled(n int) {
	if now := r.bytes.Add(-int64(n)); now < MaxReadAheadBytes && now+int64(n) >= MaxReadAheadBytes {
		select {
		case r.room <- struct{}{}:
		default: // a token is there already
		}
	}
}

// wait returns once there is room to read another line (at once, nearly always), or false when
// done is closed first.
func (r *readAhead) wait(done <-chan struct{}) bool {
	for r.bytes.Load() >= MaxReadAheadBytes {
		if r.onWait != nil {
			r.onWait()
		}
		select {
		case <-r.room:
		case <-done:
			return false
		}
	}
	return true
}
