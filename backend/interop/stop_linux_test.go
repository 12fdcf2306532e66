package interop

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"agentdesk/backend/acp"
	"agentdesk/backend/supervise/proctest"
)

// TestStopDuringALongCommand: Stop while the agent's command runs ends the turn as cancelled
// and leaves nothing of the command running; the session takes the next prompt. The command
// tells the test its process id through a FIFO, then becomes a long sleep.
func TestStopDuringALongCommand(t *testing.T) {
	each(t, func(t *testing.T, f flavour, wire *Tripwire) {
		fifo := filepath.Join(t.TempDir(), "pid")
		if err := syscall.Mkfifo(fifo, 0o600); err != nil {
			t.Fatal(err)
		}
		r, _ := scripted(t, f, wire, f.ask, func(_ string, a Ask) Answer {
			if strings.Contains(a.Prompt, "sleep") && !a.HasResult {
				return f.run("echo $$ > "+fifo+"; exec sleep 600", true)
			}
			return Say("Done.")
		})
		s := r.start()
		if _, err := s.Prompt("run the long sleep"); err != nil {
			t.Fatal(err)
		}
		pids := make(chan int, 1)
		go func() { // opening a FIFO for reading waits for its writer: the command
			fh, err := os.Open(fifo)
			if err != nil {
				pids <- 0
				return
			}
			defer fh.Close()
			line, _ := bufio.NewReader(fh).ReadString('\n')
			pid, _ := strconv.Atoi(strings.TrimSpace(line))
			pids <- pid
		}()
		perm := r.await("the command's permission request", func(ev acp.Event) bool { return ev.Kind == acp.EventPermission })
		if err := s.AnswerPermission(perm.RequestID, optionOf(t, perm.Options, "allow_once")); err != nil {
			t.Fatal(err)
		}
		var pid int
		for timeout := time.After(bound); pid == 0; {
			select {
			case pid = <-pids:
				if pid <= 0 {
					t.Fatal("the command did not say its process id")
				}
			case ev := <-r.events:
				if ev.Kind == acp.EventTurnEnd {
					t.Fatalf("the turn ended before the command ran:\n%s", dump(s))
				}
			case <-timeout:
				t.Fatalf("the command did not start within %s:\n%s", bound, dump(s))
			}
		}
		hold, err := proctest.Take(pid)
		if err != nil {
			t.Fatalf("the command is not running: %v", err)
		}
		defer hold.Close()
		defer hold.Kill() // whatever the outcome, the sleep does not outlive the test

		if err := s.Stop(); err != nil {
			t.Fatal(err)
		}
		end := r.finish(s, "")
		if end.StopReason != "cancelled" {
			t.Errorf("the turn ended %q after Stop, want cancelled", end.StopReason)
		}
		if !hold.Ended(bound) {
			t.Errorf("the command (process %d) still runs after Stop ended the turn", pid)
		}
		if end := r.turn(s, "say done", ""); end.StopReason != "end_turn" {
			t.Errorf("the next turn ended %q", end.StopReason)
		}
	})
}
