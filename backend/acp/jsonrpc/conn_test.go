package jsonrpc_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"

	"agentdesk/backend/acp/jsonrpc"
)

// recordingHandler records what the inbound loop hands it, in order.
type recordingHandler struct {
	mu    sync.Mutex
	seen  []string
	reqs  chan *jsonrpc.Request
	notes chan string
}

func newRecordingHandler() *recordingHandler {
	return &recordingHandler{reqs: make(chan *jsonrpc.Request, 16), notes: make(chan string, 1024)}
}

func (h *recordingHandler) HandleNotification(method string, params json.RawMessage) {
	h.mu.Lock()
	h.seen = append(h.seen, "n:"+string(params))
	h.mu.Unlock()
	h.notes <- string(params)
}

func (h *recordingHandler) HandleRequest(r *jsonrpc.Request) {
	h.mu.Lock()
	h.seen = append(h.seen, "r:"+string(r.ID))
	h.mu.Unlock()
	h.reqs <- r
}

// peer wires a Conn to a scripted other side over pipes: the test writes raw lines as the agent
// and reads what the Conn writes.
type peer struct {
	conn   *jsonrpc.Conn
	toConn *io.PipeWriter
}

func newPeer(t *testing.T, h jsonrpc.Handler) (*peer, *io.PipeReader) {
	t.Helper()
	inR, inW := io.Pipe()   // agent → conn
	outR, outW := io.Pipe() // conn → agent
	c := jsonrpc.NewConn(inR, outW, h, jsonrpc.WithLogf(func(string, ...any) {}))
	t.Cleanup(func() { inW.Close(); outR.Close() })
	return &peer{conn: c, toConn: inW}, outR
}

func TestConnSkipsNonJSONAndKeepsOrder(t *testing.T) {
	h := newRecordingHandler()
	p, _ := newPeer(t, h)
	lines := "npx: installed 1 package\n" +
		`{"jsonrpc":"2.0","method":"n","params":1}` + "\r\n" +
		"\xff\xfe not utf-8\n" +
		`{"jsonrpc":"2.0","id":0,"method":"ask","params":{}}` + "\n" +
		`{"jsonrpc":"2.0","method":"n","params":2}` + "\n"
	go p.toConn.Write([]byte(lines))
	<-h.notes
	req := <-h.reqs
	<-h.notes
	if string(req.ID) != "0" {
		t.Fatalf("request id = %s, want 0 (a valid id)", req.ID)
	}
	h.mu.Lock()
	got := strings.Join(h.seen, ",")
	h.mu.Unlock()
	if got != "n:1,r:0,n:2" {
		t.Fatalf("handled %s, want wire order n:1,r:0,n:2", got)
	}
	if p.conn.Skipped() != 2 {
		t.Fatalf("skipped %d lines, want 2", p.conn.Skipped())
	}
	if p.conn.Err() != nil {
		t.Fatalf("connection died: %v", p.conn.Err())
	}
}

func TestConnDeliversHugeLine(t *testing.T) {
	h := newRecordingHandler()
	p, _ := newPeer(t, h)
	big := strings.Repeat("x", 50<<20)
	go p.toConn.Write([]byte(`{"jsonrpc":"2.0","method":"n","params":"` + big + `"}` + "\n"))
	got := <-h.notes
	if len(got) != len(big)+2 {
		t.Fatalf("params length %d, want %d", len(got), len(big)+2)
	}
}

func TestConnCallResponseAndErrors(t *testing.T) {
	h := newRecordingHandler()
	p, out := newPeer(t, h)
	// The agent side: answer each request with a result, then an error with a non-standard code.
	go func() {
		dec := json.NewDecoder(out)
		var msg struct {
			ID json.RawMessage `json:"id"`
		}
		_ = dec.Decode(&msg)
		p.toConn.Write([]byte(`{"jsonrpc":"2.0","method":"n","params":"before"}` + "\n" +
			`{"jsonrpc":"2.0","id":` + string(msg.ID) + `,"result":{"ok":true}}` + "\n"))
		_ = dec.Decode(&msg)
		p.toConn.Write([]byte(`{"jsonrpc":"2.0","id":` + string(msg.ID) + `,"error":{"code":500,"message":"fetch failed","data":{"why":"offline"}}}` + "\n"))
	}()
	var res struct{ OK bool }
	if err := p.conn.Call(context.Background(), "first", nil, &res); err != nil || !res.OK {
		t.Fatalf("Call = %v, %+v", err, res)
	}
	// The response barrier: the notification sent before the response was handled first.
	select {
	case n := <-h.notes:
		if n != `"before"` {
			t.Fatalf("notification %s", n)
		}
	default:
		t.Fatal("the response was delivered before the notification that preceded it")
	}
	err := p.conn.Call(context.Background(), "second", nil, nil)
	var rpcErr *jsonrpc.Error
	if !errors.As(err, &rpcErr) || rpcErr.Code != 500 || !strings.Contains(err.Error(), "offline") {
		t.Fatalf("error = %v, want code 500 with its data", err)
	}
}

func TestConnEOFFailsPendingCalls(t *testing.T) {
	p, out := newPeer(t, newRecordingHandler())
	go func() {
		buf := make([]byte, 1024)
		_, _ = out.Read(buf)
		p.toConn.Close()
	}()
	err := p.conn.Call(context.Background(), "x", nil, nil)
	if !errors.Is(err, jsonrpc.ErrConnClosed) || !errors.Is(err, jsonrpc.ErrPeerClosed) {
		t.Fatalf("err = %v, want ErrConnClosed caused by ErrPeerClosed", err)
	}
	<-p.conn.Done()
}

// TestConnKeepsWhyReadingEnded: the cause stays an error value, so the session can tell a
// broken connection (a line too long, a read error) from an agent that closed its output.
func TestConnKeepsWhyReadingEnded(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	defer outR.Close()
	go func() { _, _ = io.Copy(io.Discard, outR) }()
	c := jsonrpc.NewConn(inR, outW, newRecordingHandler(), jsonrpc.WithLogf(func(string, ...any) {}))
	boom := errors.New("boom")
	inW.CloseWithError(boom)
	<-c.Done()
	if err := c.Call(context.Background(), "x", nil, nil); !errors.Is(err, jsonrpc.ErrConnClosed) || !errors.Is(err, boom) {
		t.Fatalf("call after the end: %v, want ErrConnClosed caused by the read error", err)
	}
	if !errors.Is(c.Err(), boom) {
		t.Fatalf("Err() = %v", c.Err())
	}
}

func TestConnCancelledCallSendsCancelRequest(t *testing.T) {
	p, out := newPeer(t, newRecordingHandler())
	ctx, cancel := context.WithCancel(context.Background())
	lines := make(chan string, 2)
	go func() {
		dec := json.NewDecoder(out)
		for range 2 {
			var raw json.RawMessage
			if dec.Decode(&raw) != nil {
				return
			}
			lines <- string(raw)
			cancel() // the request arrived: give up waiting for it
		}
	}()
	if err := p.conn.Call(ctx, "session/list", nil, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("Call = %v, want context.Canceled", err)
	}
	req, note := <-lines, <-lines
	if !strings.Contains(req, `"id":1`) || note != `{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":1}}` {
		t.Fatalf("sent %s then %s", req, note)
	}
	// The late answer is read and dropped; the connection lives on.
	p.toConn.Write([]byte(`{"jsonrpc":"2.0","id":1,"error":{"code":-32800,"message":"cancelled"}}` + "\n"))
	if p.conn.Err() != nil {
		t.Fatal(p.conn.Err())
	}
}
