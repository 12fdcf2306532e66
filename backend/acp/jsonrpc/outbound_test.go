package jsonrpc_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"agentdesk/backend/acp/jsonrpc"
)

// hangGuard is how long a test waits for what must happen at once; only a hung test reaches it.
const hangGuard = 20 * time.Second

// answeringHandler answers every request at once, on the inbound loop, and passes on the params
// of every notification.
type answeringHandler struct{ notes chan string }

func (h answeringHandler) HandleNotification(_ string, params json.RawMessage) {
	h.notes <- string(params)
}
func (h answeringHandler) HandleRequest(r *jsonrpc.Request) { r.Reply("ok", nil) }

// requests writes n requests to w, one line each, then a notification carrying last.
func requests(w io.Writer, n int, last string) error {
	for i := range n {
		if _, err := fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%d,"method":"fs/read_text_file","params":{"path":"/p/%d"}}`+"\n", i, i); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintf(w, `{"jsonrpc":"2.0","method":"note","params":%q}`+"\n", last)
	return err
}

// TestReplyNeverBlocksTheInboundLoop: a peer that pipelines requests without reading the answers
// does not stop the inbound loop: a notification sent after 500 requests is handled while none
// of their answers has been read, and once the peer reads, every answer is there, in order.
func TestReplyNeverBlocksTheInboundLoop(t *testing.T) {
	h := answeringHandler{notes: make(chan string, 1)}
	p, out := newPeer(t, h)
	go func() { _ = requests(p.toConn, 500, "after") }()
	select {
	case n := <-h.notes:
		if n != `"after"` {
			t.Fatalf("notification %s", n)
		}
	case <-time.After(hangGuard):
		t.Fatal("the inbound loop stopped: it blocked writing an answer the peer does not read")
	}
	sc := bufio.NewScanner(out)
	for i := range 500 {
		if !sc.Scan() {
			t.Fatalf("answer %d: %v", i, sc.Err())
		}
		if want := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":"ok"}`, i); sc.Text() != want {
			t.Fatalf("answer %d = %s, want %s", i, sc.Text(), want)
		}
	}
	if err := p.conn.Err(); err != nil {
		t.Fatalf("the connection ended: %v", err)
	}
}

// TestConnEndsWhenPeerStopsReading: a peer that stops reading while answers for it pile up
// past MaxQueuedMessages ends the connection with ErrPeerNotReading, which a pending call gets
// as its cause; nothing waits for the peer for ever.
func TestConnEndsWhenPeerStopsReading(t *testing.T) {
	h := answeringHandler{notes: make(chan string, 1)}
	p, _ := newPeer(t, h)
	call := make(chan error, 1)
	go func() { call <- p.conn.Call(context.Background(), "session/prompt", nil, nil) }()
	go func() { _ = requests(p.toConn, jsonrpc.MaxQueuedMessages+10, "after") }()
	select {
	case <-p.conn.Done():
	case <-time.After(hangGuard):
		t.Fatal("the connection still waits for a peer that reads nothing")
	}
	if !errors.Is(p.conn.Err(), jsonrpc.ErrPeerNotReading) || !strings.Contains(p.conn.Err().Error(), "stopped reading its input") {
		t.Fatalf("Err() = %v, want ErrPeerNotReading", p.conn.Err())
	}
	if err := <-call; !errors.Is(err, jsonrpc.ErrConnClosed) || !errors.Is(err, jsonrpc.ErrPeerNotReading) {
		t.Fatalf("the call = %v, want ErrConnClosed caused by ErrPeerNotReading", err)
	}
}

// deep is a JSON array nested n levels.
func deep(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }

// TestTooDeepRequestIsAnswered: a request nested deeper than encoding/json decodes (10,000
// levels) is answered -32600 with its id, wherever the id stands, and the connection goes on.
func TestTooDeepRequestIsAnswered(t *testing.T) {
	h := newRecordingHandler()
	p, out := newPeer(t, h)
	lines := make(chan string, 4)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	go func() {
		p.toConn.Write([]byte(`{"jsonrpc":"2.0","id":5,"method":"fs/read_text_file","params":` + deep(10001) + "}\n"))
		p.toConn.Write([]byte(`{"jsonrpc":"2.0","params":{"a":` + deep(20000) + `},"method":"x","id":"six"}` + "\n"))
		p.toConn.Write([]byte(`{"jsonrpc":"2.0","id":7,"method":"ask","params":` + deep(9000) + "}\n"))
	}()
	for _, id := range []string{"5", `"six"`} {
		select {
		case got := <-lines:
			var msg struct {
				ID    json.RawMessage
				Error *jsonrpc.Error
			}
			if err := json.Unmarshal([]byte(got), &msg); err != nil || string(msg.ID) != id || msg.Error == nil ||
				msg.Error.Code != jsonrpc.CodeInvalidRequest || !strings.Contains(msg.Error.Message, "exceeded max depth") {
				t.Fatalf("answer %s, want -32600 for id %s saying it is nested too deep", got, id)
			}
		case <-time.After(hangGuard):
			t.Fatalf("the request with id %s, nested too deep, was never answered", id)
		}
	}
	if req := <-h.reqs; string(req.ID) != "7" {
		t.Fatalf("handled request %s, want 7 (the first that decodes)", req.ID)
	}
	if p.conn.Err() != nil || p.conn.Skipped() != 0 {
		t.Fatalf("connection: %v, %d skipped", p.conn.Err(), p.conn.Skipped())
	}
}

// TestTooDeepResponseFailsTheCall: an answer nested too deep to decode fails its call with the
// reason, instead of leaving it waiting.
func TestTooDeepResponseFailsTheCall(t *testing.T) {
	p, out := newPeer(t, newRecordingHandler())
	go func() {
		var msg struct{ ID json.RawMessage }
		_ = json.NewDecoder(out).Decode(&msg)
		p.toConn.Write([]byte(`{"jsonrpc":"2.0","result":` + deep(10001) + `,"id":` + string(msg.ID) + "}\n"))
	}()
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	err := p.conn.Call(ctx, "session/prompt", nil, nil)
	var rpcErr *jsonrpc.Error
	if !errors.As(err, &rpcErr) || rpcErr.Code != jsonrpc.CodeInvalidRequest || !strings.Contains(err.Error(), "exceeded max depth") {
		t.Fatalf("Call = %v, want an error saying the answer is nested too deep", err)
	}
}
