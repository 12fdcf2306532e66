package acp_test

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"agentdesk/backend/acp/jsonrpc"
)

// journal keeps a session's raw messages and lets a test wait for one.
type journal struct {
	mu    sync.Mutex
	lines []string
	feed  chan string
}

func (j *journal) record(dir jsonrpc.Direction, method string, line []byte) {
	s := fmt.Sprintf("%s %s %s", dir, method, line)
	j.mu.Lock()
	j.lines = append(j.lines, s)
	j.mu.Unlock()
	j.feed <- s
}

// waitFor returns the first message (from now on) that matches, failing after a bound that only
// a hung test reaches.
func (j *journal) waitFor(t *testing.T, what string, match func(string) bool) string {
	t.Helper()
	timeout := time.After(20 * time.Second)
	for {
		select {
		case line := <-j.feed:
			if match(line) {
				return line
			}
		case <-timeout:
			t.Fatalf("no %s in the journal", what)
		}
	}
}
