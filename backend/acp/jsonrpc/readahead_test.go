package jsonrpc

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// gatedHandler holds the inbound loop in its first notification until gate is closed, and
// records the methods it was given.
type gatedHandler struct {
	gate    chan struct{}
	methods chan string
}

func (h *gatedHandler) HandleNotification(method string, _ json.RawMessage) {
	if method == "first" {
		<-h.gate
	}
	h.methods <- method
}

func (h *gatedHandler) HandleRequest(r *Request) { r.Reply(nil, nil) }

// TestReaderStopsReadingAheadOfASlowLoop: while the loop is busy, the reader queues lines only
// until they hold MaxReadAheadBytes, so a peer sending huge lines cannot make the connection hold
// up to inboundQueue of them; once the loop goes on, every line is handled, in order.
func TestReaderStopsReadingAheadOfASlowLoop(t *testing.T) {
	first := `{"jsonrpc":"2.0","method":"first"}`
	big := `{"jsonrpc":"2.0","method":"big","params":"` + strings.Repeat("x", MaxReadAheadBytes) + `"}`
	wire := first + "\n" + big + "\n" + `{"jsonrpc":"2.0","method":"after"}` + "\n"
	h := &gatedHandler{gate: make(chan struct{}), methods: make(chan string, 3)}
	waiting := make(chan int64, 1)
	var c *Conn
	c = NewConn(strings.NewReader(wire), discard{}, h, WithLogf(func(string, ...any) {}), func(c *Conn) {
		c.ahead.onWait = func() {
			select {
			case waiting <- c.ahead.bytes.Load():
			default:
			}
		}
	})
	defer c.Close(nil)
	// The loop holds "first" and "big" passes the bound: the reader waits, holding those two
	// lines and not the one after.
	select {
	case held := <-waiting:
		if want := int64(len(first) + len(big)); held != want {
			t.Fatalf("the reader waits holding %d bytes, want %d: the lines before the bound and no more", held, want)
		}
	case <-time.After(20 * time.Second): // a bound only a hung test reaches
		t.Fatal("the reader never waited for the loop")
	}
	close(h.gate)
	for _, want := range []string{"first", "big", "after"} {
		if got := <-h.methods; got != want {
			t.Fatalf("handled %q, want %q", got, want)
		}
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
