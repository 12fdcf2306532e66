package jsonrpc

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
)

// MaxLineBytes is the only limit on a line. Huge diffs and file contents arrive as one line, so
// it is far above anything real; a longer line ends the connection with ErrLineTooLong.
const MaxLineBytes = 256 << 20

// ErrLineTooLong ends a connection whose peer sent a line over MaxLineBytes.
var ErrLineTooLong = errors.New("protocol line longer than 256 MiB")

// read is the only reader. It splits lines, decodes envelopes and queues them in order, reading
// the next line only when there is room ahead of the loop (readAhead).
func (c *Conn) read(r io.Reader) {
	br := bufio.NewReaderSize(r, 64<<10)
	var cause error
	for c.ahead.wait(c.done) {
		line, err := readLine(br, MaxLineBytes)
		if len(line) > 0 {
			if env := c.decode(line); env != nil {
				env.size = len(line)
				c.ahead.queued(env.size)
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
	if cause == nil {
		return // the connection ended while the reader waited for room
	}
	if errors.Is(cause, io.EOF) {
		cause = ErrPeerClosed
	}
	// Let the loop handle everything already read before failing pending calls, so a final
	// response that arrived just before EOF is still delivered. The send orders readErr's write
	// before the loop's read.
	c.readErr = cause
	select {
	case c.inbound <- &envelope{Method: eofMethod}:
	case <-c.done:
	}
}

// eofMethod marks the end of input in the inbound queue; no real method has a NUL byte.
const eofMethod = "\x00eof"

// readLine returns one line without its "\n" or trailing "\r", in memory of its own that
// nothing changes afterwards (decode lets values share it). A line may be as long as limit
// (MaxLineBytes); a longer one is ErrLineTooLong. A line that fits the reader's buffer is
// copied once; a longer one is gathered on a stage outside the heap and joined once, in one
// allocation of the line's size, so reading a line of N bytes leaves N bytes in the heap.
func readLine(br *bufio.Reader, limit int) ([]byte, error) {
	var st stage
	defer st.free() // a line too long, or a read error halfway
	for {
		frag, err := br.ReadSlice('\n')
		if st.n+len(frag) > limit {
			return nil, ErrLineTooLong
		}
		if err == bufio.ErrBufferFull {
			st.write(frag) // frag is the reader's buffer: copy it now
			continue
		}
		return bytes.TrimRight(st.join(frag), "\r\n"), err
	}
}

// decode turns a line into an envelope, or skips it (nil) when it is not a JSON-RPC message.
func (c *Conn) decode(line []byte) *envelope {
	trimmed := bytes.TrimSpace(line)
	if len(trimmed) == 0 {
		return nil
	}
	var w wireEnvelope
	err := Unmarshal(trimmed, &w)
	env := &envelope{JSONRPC: w.JSONRPC, ID: json.RawMessage(w.ID), Method: w.Method,
		Params: json.RawMessage(w.Params), Result: json.RawMessage(w.Result), Error: w.Error}
	if err != nil {
		// A request or response that does not decode is still answered or delivered (see
		// undecodable); only a line without an id is noise.
		if id, method, request := salvage(trimmed); len(id) > 0 {
			if c.tap != nil {
				c.tap(In, method, trimmed)
			}
			return &envelope{ID: id, Method: method, bad: &undecodable{err: err, request: request}}
		}
	}
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
