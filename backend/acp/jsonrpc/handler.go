package jsonrpc

import (
	"encoding/json"
	"errors"
	"sync"
)

// Handler receives what the peer sends: it is the one seam between a connection and what
// serves it. Both methods are called on the single inbound loop, in wire order, and must not
// block: work that waits (a person, the disk, a process) is handed to another goroutine, which
// answers through Request.Reply.
type Handler interface {
	HandleNotification(method string, params json.RawMessage)
	HandleRequest(req *Request)
}

// Request is one inbound request. Reply must be called exactly once; later calls are ignored
// and return false, so "answer once" holds whichever answer comes first (a person, a stop,
// the end of the connection).
type Request struct {
	ID     json.RawMessage // echoed back byte for byte
	Method string
	Params json.RawMessage

	conn *Conn
	once sync.Once
}

// Reply answers the request with result, or with err when it is non-nil (an *Error is sent as
// is; any other error becomes CodeInternalError with its text). It reports whether this call
// answered. It never blocks: the answer is queued for the writer, behind what was sent before
// it; a peer that does not read its answers ends the connection (ErrPeerNotReading).
func (r *Request) Reply(result any, err error) bool {
	answered := false
	r.once.Do(func() {
		answered = true
		msg := envelope{JSONRPC: "2.0", ID: r.ID}
		if err != nil {
			var rpcErr *Error
			if !errors.As(err, &rpcErr) {
				rpcErr = &Error{Code: CodeInternalError, Message: err.Error()}
			}
			msg.Error = rpcErr
		} else {
			raw, mErr := json.Marshal(result)
			if mErr != nil {
				msg.Error = &Error{Code: CodeInternalError, Message: "encode result: " + mErr.Error()}
			} else {
				msg.Result = raw
			}
		}
		line, mErr := json.Marshal(&msg)
		if mErr != nil { // an id or error data that is not JSON: only a bug of ours
			r.conn.logf("reply to %s: encode: %v", r.Method, mErr)
			return
		}
		_ = r.conn.enqueue(outMsg{line: line}) // fails only once the connection is over: no one to answer
	})
	return answered
}
