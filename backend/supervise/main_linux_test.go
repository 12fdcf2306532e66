//go:build linux

package supervise_test

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"
	"testing"
	"time"

	"agentdesk/backend/supervise"
	"agentdesk/backend/supervise/proctest"
)

// roleEnv makes this test binary, started by a test, act as a command with a family (family).
const roleEnv = "SUPERVISETEST_ROLE"

// TestMain lets this test binary be a supervisor (as agentdesk's own binary is) and the commands
// the tests supervise.
func TestMain(m *testing.M) {
	supervise.MaybeSupervise()
	switch role := os.Getenv(roleEnv); role {
	case "":
		supervise.EnableSupervisor("/proc/self/exe") // as main does
		proctest.NoExitSleep()
		os.Exit(m.Run())
	case "stay", "leave":
		family(role == "stay")
	default:
		fmt.Fprintln(os.Stderr, "unknown role", role)
		os.Exit(2)
	}
}

// daemonLine starts a daemon the way daemons are started (a double fork into a session of its
// own, stdio on /dev/null) and prints its pid: a grandchild whose parent has already exited.
const daemonLine = `(setsid sh -c 'echo $$; exec sleep 300 </dev/null >/dev/null 2>&1' &)`

// family is a command as an agent's tree is: a child in its process group, one that left it for
// a session of its own (setsid), and a daemon grandchild (daemonLine). It prints
// "self child away daemon" (their pids). Then it ignores SIGTERM and the end of its stdin and
// runs until killed (stay), or exits with status 0 once it reads a line or EOF (leave), so that
// the test holds every pid before anything of the family can end.
func family(stay bool) {
	signal.Ignore(syscall.SIGTERM)
	child := exec.Command("sleep", "300")
	away := exec.Command("sleep", "300")
	away.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if child.Start() != nil || away.Start() != nil {
		os.Exit(2)
	}
	daemon, err := exec.Command("sh", "-c", daemonLine).Output()
	if err != nil {
		os.Exit(2)
	}
	fmt.Printf("%d %d %d %s\n", os.Getpid(), child.Process.Pid, away.Process.Pid, strings.TrimSpace(string(daemon)))
	if !stay {
		_, _ = bufio.NewReader(os.Stdin).ReadString('\n')
		os.Exit(0)
	}
	_, _ = io.Copy(io.Discard, os.Stdin)
	time.Sleep(time.Hour) // until killed
}
