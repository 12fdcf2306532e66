package store

import (
	"runtime"
	"syscall"
)

// writerNice is the writer thread's nice value. Measured with e2e/perf.mjs (the page in the
// app's scheduling group, as the app's own webview is): during a 20,000-chunk flood the frames
// over 33 ms fell from 2-4% of all to 1-3%, and the transcript showed everything ~12% sooner,
// because the reader and the page got the CPU the writer gave up. +10 leaves it about a tenth
// of a busy core's time, enough to keep up with any real agent; a flood makes its batches grow.
const writerNice = 10

// lowerPriority moves the calling goroutine onto an OS thread of its own, for good, and lowers
// that thread's priority (Linux's nice is per thread). Only the writer's goroutine calls it;
// the thread ends with the goroutine. It returns the thread's id, or 0 if setpriority failed:
// that leaves the priority as it was, nothing to report, the writer only goes first more often.
func lowerPriority() int {
	runtime.LockOSThread()
	tid := syscall.Gettid()
	if syscall.Setpriority(syscall.PRIO_PROCESS, tid, writerNice) != nil {
		return 0
	}
	return tid
}
