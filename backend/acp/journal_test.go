package acp_test

import (
	"fmt"
	"sync"
	"testing"

	"agentdesk/backend/acp/acptest"
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
	return acptest.Await(t, j.feed, what+" in the journal", match)
}
