package interop

import (
	"net"
	"sync"
)

// Tripwire is a listener on 127.0.0.1 that the agents are given as their HTTP(S) proxy: every
// connection an agent opens to anything but 127.0.0.1 (NO_PROXY) comes here, is counted and
// closed. A test that ends with Hits() == 0 has proved the agent reached nothing else through
// its proxy settings.
type Tripwire struct {
	URL  string // http://127.0.0.1:PORT
	ln   net.Listener
	mu   sync.Mutex
	hits []string // what each connection sent first (its CONNECT line)
	done chan struct{}
}

// NewTripwire starts the listener; Close stops it.
func NewTripwire() (*Tripwire, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	w := &Tripwire{URL: "http://" + ln.Addr().String(), ln: ln, done: make(chan struct{})}
	go w.accept()
	return w, nil
}

func (w *Tripwire) accept() {
	defer close(w.done)
	for {
		c, err := w.ln.Accept()
		if err != nil {
			return
		}
		buf := make([]byte, 200)
		n, _ := c.Read(buf) // the request line says where it wanted to go
		c.Close()
		w.mu.Lock()
		w.hits = append(w.hits, string(buf[:n]))
		w.mu.Unlock()
	}
}

// Hits are the first bytes of every connection the tripwire has had.
func (w *Tripwire) Hits() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.hits...)
}

// ProxyEnv are the environment variables that point every proxy-honouring client at the
// tripwire, except for 127.0.0.1 and localhost (the scripted model servers).
func (w *Tripwire) ProxyEnv() []string {
	var env []string
	for _, k := range []string{"HTTPS_PROXY", "HTTP_PROXY", "ALL_PROXY", "https_proxy", "http_proxy", "all_proxy"} {
		env = append(env, k+"="+w.URL)
	}
	return append(env, "NO_PROXY=127.0.0.1,localhost", "no_proxy=127.0.0.1,localhost")
}

// Close stops the listener and waits for its goroutine.
func (w *Tripwire) Close() {
	w.ln.Close()
	<-w.done
}
