//go:build linux

package supervise_test

import (
	"bufio"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"

	"agentdesk/backend/supervise"
)

// BenchmarkSupervisorMemory starts and stops a supervised command (ns/op), then prints what a
// session's supervisor costs in private memory (Private_Clean + Private_Dirty of
// /proc/PID/smaps_rollup, as e2e/perf.mjs's supervisor_private_per_session reads it): alone,
// when its binary's text is its own, and per session with four sessions, which share that text
// (what each session costs once there are several); dirty-KiB/session is the part no other
// process shares nor the kernel can drop. Figures, never asserted (issue 32's goal: ≤ 2 MiB).
func BenchmarkSupervisorMemory(b *testing.B) {
	start := func() *supervise.Process {
		p, err := supervise.Start(supervise.Command{Path: "sh", Args: []string{"-c", "echo ready; exec sleep 300"},
			Env: os.Environ(), Dir: b.TempDir()})
		if err != nil {
			b.Fatal(err)
		}
		out := bufio.NewReader(p)
		if line, err := out.ReadString('\n'); line != "ready\n" {
			b.Fatalf("the command said %q: %v", line, err)
		}
		go func() { _, _ = io.Copy(io.Discard, out) }() // its output ends with it, not by a linger
		return p
	}
	for b.Loop() {
		if err := start().Close(0); err != nil {
			b.Fatal(err)
		}
	}

	sessions := []*supervise.Process{start()}
	defer func() {
		for _, p := range sessions {
			_ = p.Close(0)
		}
	}()
	lone := private(b, sessions[0].Pid())
	for range 3 {
		sessions = append(sessions, start())
	}
	var all, dirty float64
	for _, p := range sessions {
		m := private(b, p.Pid())
		all += m["Private_Clean"] + m["Private_Dirty"]
		dirty += m["Private_Dirty"]
	}
	n := float64(len(sessions))
	b.ReportMetric(lone["Private_Clean"]+lone["Private_Dirty"], "lone-private-KiB")
	b.ReportMetric(all/n, "private-KiB/session")
	b.ReportMetric(dirty/n, "dirty-KiB/session")
}

// private reads the kB figures of process pid's /proc/PID/smaps_rollup.
func private(b *testing.B, pid int) map[string]float64 {
	raw, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/smaps_rollup")
	if err != nil {
		b.Fatal(err)
	}
	m := map[string]float64{}
	for _, line := range strings.Split(string(raw), "\n") {
		if f := strings.Fields(line); len(f) == 3 && f[2] == "kB" {
			v, _ := strconv.ParseFloat(f[1], 64)
			m[strings.TrimSuffix(f[0], ":")] = v
		}
	}
	return m
}
