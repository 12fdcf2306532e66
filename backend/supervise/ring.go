package supervise

import (
	"bytes"
	"io"
	"strings"
	"sync"

	vt "github.com/charmbracelet/x/ansi"
)

// Ring keeps the last lines of a stream (an agent's stderr) within a line and a byte budget,
// with ANSI escapes stripped (by charmbracelet/x/ansi's parser). It is an io.Writer, safe for concurrent use.
type Ring struct {
	mu       sync.Mutex
	lines    []string
	partial  []byte
	maxLines int
	maxBytes int
	size     int
}

var _ io.Writer = (*Ring)(nil)

// NewRing keeps at most maxLines lines and about maxBytes bytes.
func NewRing(maxLines, maxBytes int) *Ring { return &Ring{maxLines: maxLines, maxBytes: maxBytes} }

// Write adds p; complete lines enter the ring, a trailing partial line waits for its end.
func (r *Ring) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.partial = append(r.partial, p...)
	for {
		i := bytes.IndexByte(r.partial, '\n')
		if i < 0 {
			break
		}
		r.push(string(r.partial[:i]))
		r.partial = r.partial[i+1:]
	}
	if len(r.partial) > r.maxBytes { // a endless line without newline: keep its tail
		r.partial = append([]byte(nil), r.partial[len(r.partial)-r.maxBytes:]...)
	}
	return len(p), nil
}

func (r *Ring) push(line string) {
	line = strings.TrimRight(vt.Strip(line), "\r")
	r.lines = append(r.lines, line)
	r.size += len(line) + 1
	for len(r.lines) > r.maxLines || (r.size > r.maxBytes && len(r.lines) > 1) {
		r.size -= len(r.lines[0]) + 1
		r.lines = r.lines[1:]
	}
}

// String is the kept text, oldest line first, including a trailing partial line.
func (r *Ring) String() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := strings.Join(r.lines, "\n")
	if len(r.partial) > 0 {
		if s != "" {
			s += "\n"
		}
		s += vt.Strip(string(r.partial))
	}
	return s
}

// Tail is the last n lines of String.
func (r *Ring) Tail(n int) string {
	lines := strings.Split(r.String(), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
