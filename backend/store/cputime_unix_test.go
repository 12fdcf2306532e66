//go:build unix

package store

import (
	"syscall"
	"testing"
	"time"
)

// cpuTime is the CPU time the process has used (user and system), for benchmarks.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
