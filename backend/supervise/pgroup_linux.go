package supervise

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// proc is one process as /proc/PID/stat describes it.
type proc struct {
	pid, ppid, pgid int
	gone            bool // a zombie (it only waits for its parent to reap it) or dead
}

// procs lists the processes of the machine (those that end while it reads are left out).
func procs() []proc {
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	out := make([]proc, 0, len(stats))
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
		if len(f) < 3 {
			continue
		}
		pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(path)))
		ppid, _ := strconv.Atoi(f[1])
		pgid, _ := strconv.Atoi(f[2])
		out = append(out, proc{pid: pid, ppid: ppid, pgid: pgid, gone: f[0] == "Z" || f[0] == "X"})
	}
	return out
}

// groupRunning reports whether any process of group pgid is still running (zombies do not count).
func groupRunning(pgid int) bool {
	for _, p := range procs() {
		if p.pgid == pgid && !p.gone {
			return true
		}
	}
	return false
}

// descendants lists the running processes descended from pid.
func descendants(pid int) []int {
	children := map[int][]proc{}
	for _, p := range procs() {
		children[p.ppid] = append(children[p.ppid], p)
	}
	var out []int
	next := []int{pid}
	for len(next) > 0 {
		parent := next[len(next)-1]
		next = next[:len(next)-1]
		for _, c := range children[parent] {
			if !c.gone {
				out = append(out, c.pid)
			}
			next = append(next, c.pid) // a zombie's children are still to be found
		}
	}
	return out
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
