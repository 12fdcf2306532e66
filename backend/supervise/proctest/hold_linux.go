//go:build linux

package proctest

import (
	"errors"
	"fmt"
	"time"

	"golang.org/x/sys/unix"
)

// Hold is one process held by a pidfd. Close it when done.
type Hold struct {
	Pid int
	fd  int
}

// ErrGone: the process had already ended and been reaped when the hold was asked for.
var ErrGone = errors.New("the process has already ended")

// Take holds process pid. It fails with ErrGone when pid names no process (any more).
func Take(pid int) (*Hold, error) {
	fd, err := unix.PidfdOpen(pid, 0)
	if errors.Is(err, unix.ESRCH) {
		return nil, fmt.Errorf("hold process %d: %w", pid, ErrGone)
	}
	if err != nil {
		return nil, fmt.Errorf("hold process %d: %w", pid, err)
	}
	return &Hold{Pid: pid, fd: fd}, nil
}

// Ended waits up to d for the process to end and reports whether it did. An error of poll(2)
// counts as not ended: the caller fails rather than believe an end it did not see.
func (h *Hold) Ended(d time.Duration) bool {
	deadline := time.Now().Add(d)
	for {
		left := time.Until(deadline)
		if left < 0 {
			left = 0
		}
		n, err := unix.Poll([]unix.PollFd{{Fd: int32(h.fd), Events: unix.POLLIN}}, int(left.Milliseconds()))
		if err == unix.EINTR {
			continue
		}
		return err == nil && n > 0
	}
}

// Kill sends SIGKILL to the held process (never to another that took its pid); one that has
// ended already is left as it is.
func (h *Hold) Kill() { _ = unix.PidfdSendSignal(h.fd, unix.SIGKILL, nil, 0) }

// Close lets the process go.
func (h *Hold) Close() error { return unix.Close(h.fd) }

// Ends reports whether process pid ends within d; one already reaped has.
func Ends(pid int, d time.Duration) bool {
	h, err := Take(pid)
	if errors.Is(err, ErrGone) {
		return true
	}
	if err != nil {
		return false
	}
	defer h.Close()
	return h.Ended(d)
}
