package jsonrpc_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"sync"
	"testing"

	"agentdesk/backend/acp/jsonrpc"
)

// TestReplyAnswersOnce: the first Reply answers, later ones are ignored and say so; an error
// that is not an *Error goes out as -32603 with its text.
func TestReplyAnswersOnce(t *testing.T) {
	h := newRecordingHandler()
	p, out := newPeer(t, h)
	go p.toConn.Write([]byte(`{"jsonrpc":"2.0","id":"a","method":"ask"}` + "\n" + `{"jsonrpc":"2.0","id":7,"method":"ask"}` + "\n"))
	first, second := <-h.reqs, <-h.reqs
	lines := make(chan string, 4)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	if !first.Reply(map[string]int{"n": 1}, nil) {
		t.Fatal("the first Reply did not answer")
	}
	if got := <-lines; got != `{"jsonrpc":"2.0","id":"a","result":{"n":1}}` {
		t.Fatalf("answer %q", got)
	}
	if !second.Reply(nil, errors.New("disk full")) {
		t.Fatal("the second request's Reply did not answer")
	}
	if first.Reply(nil, errors.New("again")) || second.Reply(map[string]int{}, nil) {
		t.Fatal("a request was answered twice")
	}
	if got := <-lines; got != `{"jsonrpc":"2.0","id":7,"error":{"code":-32603,"message":"disk full"}}` {
		t.Fatalf("answer %q", got)
	}
	// The ignored replies wrote nothing: the next line is the answer to a later request.
	go p.toConn.Write([]byte(`{"jsonrpc":"2.0","id":8,"method":"ask"}` + "\n"))
	(<-h.reqs).Reply("last", nil)
	if got := <-lines; got != `{"jsonrpc":"2.0","id":8,"result":"last"}` {
		t.Fatalf("after the ignored replies: %q", got)
	}
}

// TestTapSeesEveryLineAsSent: the tap gets the exact bytes of each line, skipped ones too (with
// no method), in wire order per direction.
func TestTapSeesEveryLineAsSent(t *testing.T) {
	type tapped struct {
		dir          jsonrpc.Direction
		method, line string
	}
	var mu sync.Mutex
	var got []tapped
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	h := newRecordingHandler()
	c := jsonrpc.NewConn(inR, outW, h, jsonrpc.WithLogf(func(string, ...any) {}), jsonrpc.WithTap(func(d jsonrpc.Direction, m string, l []byte) {
		mu.Lock()
		got = append(got, tapped{d, m, string(l)})
		mu.Unlock()
	}))
	t.Cleanup(func() { inW.Close(); outR.Close() })
	go func() { _, _ = io.Copy(io.Discard, outR) }()
	go inW.Write([]byte("banner\n" + `{"jsonrpc":"2.0", "method":"n","params":[1, 2]}` + "\r\n"))
	<-h.notes
	if err := c.Notify("hello", []int{3}); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	want := []tapped{{jsonrpc.In, "", "banner"}, {jsonrpc.In, "n", `{"jsonrpc":"2.0", "method":"n","params":[1, 2]}`},
		{jsonrpc.Out, "hello", `{"jsonrpc":"2.0","method":"hello","params":[3]}`}}
	if len(got) != len(want) {
		t.Fatalf("tapped %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("tap %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}

// TestResponseBeforeEOFIsDelivered: a peer that answers and exits at once still gets its answer
// through; the end of input fails only what is still pending.
func TestResponseBeforeEOFIsDelivered(t *testing.T) {
	p, out := newPeer(t, newRecordingHandler())
	go func() {
		var msg struct {
			ID json.RawMessage `json:"id"`
		}
		_ = json.NewDecoder(out).Decode(&msg)
		p.toConn.Write([]byte(`{"jsonrpc":"2.0","id":` + string(msg.ID) + `,"result":"bye"}` + "\n"))
		p.toConn.Close()
	}()
	var res string
	if err := p.conn.Call(context.Background(), "last", nil, &res); err != nil || res != "bye" {
		t.Fatalf("Call = %q, %v; want the answer sent before EOF", res, err)
	}
	<-p.conn.Done()
	if !errors.Is(p.conn.Err(), jsonrpc.ErrPeerClosed) {
		t.Fatalf("Err() = %v, want ErrPeerClosed", p.conn.Err())
	}
}

// TestCloseFailsPendingCalls: Close answers every waiting call with its cause, and later calls
// fail at once.
func TestCloseFailsPendingCalls(t *testing.T) {
	p, out := newPeer(t, newRecordingHandler())
	sent := make(chan struct{})
	go func() {
		var raw json.RawMessage
		_ = json.NewDecoder(out).Decode(&raw)
		close(sent)
		_, _ = io.Copy(io.Discard, out)
	}()
	stop := errors.New("stopped by the test")
	pending, err := p.conn.Start("slow", nil)
	if err != nil {
		t.Fatal(err)
	}
	<-sent
	p.conn.Close(stop)
	if err := pending.Wait(context.Background(), nil); !errors.Is(err, jsonrpc.ErrConnClosed) || !errors.Is(err, stop) {
		t.Fatalf("pending call = %v, want ErrConnClosed caused by Close's cause", err)
	}
	if _, err := p.conn.Start("later", nil); !errors.Is(err, jsonrpc.ErrConnClosed) {
		t.Fatalf("call after Close = %v, want ErrConnClosed", err)
	}
}
