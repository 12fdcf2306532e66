package supervise_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"agentdesk/backend/supervise"
)

// ringOf is a ring of maxLines lines and maxBytes bytes after the writes.
func ringOf(maxLines, maxBytes int, writes ...string) *supervise.Ring {
	r := supervise.NewRing(maxLines, maxBytes)
	for _, w := range writes {
		if n, err := r.Write([]byte(w)); n != len(w) || err != nil {
			panic(fmt.Sprintf("Write(%q) = %d, %v", w, n, err))
		}
	}
	return r
}

// TestRingBounds: the ring keeps the last lines within its line budget and its byte budget,
// keeps a line longer than the byte budget when it is the last, bounds a line that never ends
// to its tail, joins lines written in pieces, and strips escapes and carriage returns.
func TestRingBounds(t *testing.T) {
	for _, c := range []struct {
		name   string
		ring   *supervise.Ring
		want   string
		tail2  string
		reason string
	}{
		{"lines", ringOf(3, 1000, "a\nb\nc\n", "d\n"), "b\nc\nd", "c\nd", "the oldest line goes past the line budget"},
		{"bytes", ringOf(100, 10, "12345\n", "67890\n"), "67890", "67890", "two lines of 6 bytes exceed 10"},
		{"one long line", ringOf(100, 4, "a line longer than the budget\n"), "a line longer than the budget", "a line longer than the budget", "the last line is kept whole"},
		{"no end", ringOf(10, 8, "0123456789", "abcdef"), "89abcdef", "89abcdef", "a line without end keeps its last maxBytes bytes"},
		{"no end, then ended", ringOf(10, 8, "0123456789abcdef", "\nx"), "89abcdef\nx", "89abcdef\nx", "the bounded line enters the ring whole"},
		{"pieces", ringOf(10, 100, "hel", "lo\nwor", "ld\n"), "hello\nworld", "hello\nworld", "a line written in pieces is one line"},
		{"escapes", ringOf(10, 100, "\x1b[31mfatal\x1b[0m: no\r\n", "\x1b[1mhalf"), "fatal: no\nhalf", "fatal: no\nhalf", "ANSI escapes and a CR before LF are not kept"},
		{"empty", ringOf(10, 100), "", "", "nothing written, nothing kept"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := c.ring.String(); got != c.want {
				t.Fatalf("String() = %q, want %q: %s", got, c.want, c.reason)
			}
			if got := c.ring.Tail(2); got != c.tail2 {
				t.Fatalf("Tail(2) = %q, want %q", got, c.tail2)
			}
		})
	}
}

// TestRingWritersAtOnce: writers at once (an agent's stderr drained while the window reads its
// tail) keep every line whole and the ring within its line budget (run with -race).
func TestRingWritersAtOnce(t *testing.T) {
	r := supervise.NewRing(50, 1<<20)
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				fmt.Fprintf(r, "writer %d line %d\n", w, i)
				_ = r.Tail(3)
			}
		}()
	}
	wg.Wait()
	lines := strings.Split(r.String(), "\n")
	if len(lines) != 50 {
		t.Fatalf("%d lines kept, want the line budget's 50", len(lines))
	}
	for _, l := range lines {
		var w, i int
		if n, _ := fmt.Sscanf(l, "writer %d line %d", &w, &i); n != 2 {
			t.Fatalf("line %q is not one writer's whole line", l)
		}
	}
}
