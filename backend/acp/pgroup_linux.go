package acp

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// groupRunning reports whether any process of group pgid is still running (zombies, which only
// wait for their parent to reap them, do not count).
func groupRunning(pgid int) bool {
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, path := range stats {
		raw, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		// Fields after the command name, which is in parentheses and may hold spaces.
		s := string(raw)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) > 2 && f[0] != "Z" && f[0] != "X" && f[2] == strconv.Itoa(pgid) {
			return true
		}
	}
	return false
}

// waitGroupGone waits up to d for every process of group pgid to end; signals are delivered
// asynchronously, and grandchildren are not ours to wait for.
func waitGroupGone(pgid int, d time.Duration) bool {
	deadline := time.Now().Add(d)
	for groupRunning(pgid) {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
	return true
}
