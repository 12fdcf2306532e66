package supervise

import (
	"time"

	"agentdesk/backend/supervise/supervisor"
)

// groupRunning reports whether any process of group pgid is still running (zombies do not count).
func groupRunning(pgid int) bool {
	for _, p := range supervisor.Procs() {
		if p.Pgid == pgid && !p.Gone {
			return true
		}
	}
	return false
}

// WaitGroupGone waits up to d for every process of group pgid to end; signals are delivered
// asynchronously, and grandchildren are not ours to wait for.
func WaitGroupGone(pgid int, d time.Duration) bool {
	deadline := time.Now().Add(d)
	for groupRunning(pgid) {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
	return true
}
