package agents

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"agentdesk/backend/supervise/proctest"
)

// Linux's: the test waits on a pidfd.

func TestCaptureLoginEnvGivesUpOnAHangingStartupFile(t *testing.T) {
	// The profile starts a child, tells its pid through a FIFO, then waits for it forever. The
	// test cancels the capture once the child runs: no timing involved.
	fifo := filepath.Join(t.TempDir(), "sleep.pid")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	bash, _ := bashWithHome(t, "sleep 1000 & echo $! > "+fifo+"\nwait\n")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pids := make(chan string, 1)
	go func() {
		raw, _ := os.ReadFile(fifo) // blocks until the profile has written and closed it
		pids <- strings.TrimSpace(string(raw))
		cancel()
	}()
	_, err := CaptureLoginEnv(ctx, bash)
	if err == nil || !strings.Contains(err.Error(), "did not finish in time") {
		t.Fatalf("err = %v, want a give-up that says so", err)
	}
	var pid int
	select {
	case raw := <-pids:
		pid, _ = strconv.Atoi(raw)
	default:
		if w, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			w.Close() // let the reader go
		}
		t.Fatal("the capture ended before the profile started its child")
	}
	if pid == 0 || alive(pid) {
		t.Errorf("the startup file's child %d outlived the capture: its process group was not killed", pid)
	}
}

// alive reports whether pid still runs 5 s after the capture killed its group: it waits for the
// exit on a pidfd (proctest; the kill is sent, but the exit is asynchronous), never by polling
// the clock.
func alive(pid int) bool { return !proctest.Ends(pid, 5*time.Second) }
