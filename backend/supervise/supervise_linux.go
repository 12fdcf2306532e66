package supervise

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// Nothing an agent or a terminal starts outlives it. The kernel's parent-death signal reaches
// only the direct child, and a process that leaves its process group or session (setsid, a
// daemon's double fork) escapes every signal sent to the group. So each agent and each
// terminal's shell runs under a supervisor: agentdesk's own binary re-executed, in the child's
// process group. It is the subreaper of everything below it (PR_SET_CHILD_SUBREAPER: orphans
// are re-parented to it, whatever group or session they moved to), and it kills every process
// descended from it, then exits as its child did, when
//   - its child exits (what an agent or a command leaves behind goes with it),
//   - agentdesk asks (it closes its end of the control pipe: a hard stop, terminal/kill), or
//   - agentdesk is gone, however it ended (the kernel closes that end: even SIGKILL).
// Before it exits it reports on a second pipe whether anything could not be killed, so that
// agentdesk never claims a kill that did not happen (see Tree.Left).

// superviseEnv marks a process started as a supervisor; its value is the pid of the agentdesk
// that started it, so a stray variable in a user's environment never turns agentdesk into one.
const superviseEnv = "AGENTDESK_SUPERVISE"

// The supervisor's control pipe (read end) and report pipe (write end), after its stdio.
const (
	controlFd = 3
	reportFd  = 4
)

// killAllFor bounds how long a supervisor tries to kill its descendants (a fork bomb may outrun
// one round of kills); those still running then are reported.
const killAllFor = 5 * time.Second

var supervisorExe atomic.Pointer[string]

// EnableSupervisor makes every agent and terminal started after it run under a supervisor, so
// that nothing it starts outlives it, however it ends. exe is a path to the running
// binary ("/proc/self/exe" on Linux works even after an upgrade replaced the file); that
// binary's main must call MaybeSupervise before anything else. Called once by main; tests that
// start real agents may call it from TestMain.
func EnableSupervisor(exe string) { supervisorExe.Store(&exe) }

// MaybeSupervise returns at once unless this process was started as a supervisor by
// EnableSupervisor's rewrite of an agent's command; then it supervises the agent and exits with
// the agent's exit status (or dies of the agent's signal). Call it first thing in main and in
// the TestMain of test binaries that act as agentdesk.
func MaybeSupervise() {
	want := os.Getenv(superviseEnv)
	if want == "" {
		return
	}
	os.Unsetenv(superviseEnv) // the agent must not see it
	if ppid, err := strconv.Atoi(want); err != nil || ppid != os.Getppid() || len(os.Args) < 3 {
		return // set by someone else, or the parent is already gone: behave as agentdesk
	}
	os.Exit(supervise(os.Args[1], os.Args[2:]))
}

// supervise runs the agent at path with argv and returns the exit code to leave with.
func supervise(path string, argv []string) int {
	// The agent's parent-death signal belongs to the thread that forked it: keep it for good.
	runtime.LockOSThread()
	// Caught, not ignored: an ignored signal would stay ignored in the agent after exec. The
	// stop ladder's SIGTERM and a typed Ctrl-C reach the agent directly; the supervisor stays.
	signal.Notify(make(chan os.Signal, 1), syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	control, report := os.NewFile(controlFd, "control"), os.NewFile(reportFd, "report")
	unix.CloseOnExec(controlFd) // the agent must hold neither: they tell of agentdesk and of us
	unix.CloseOnExec(reportFd)
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		fmt.Fprintf(os.Stderr, "agentdesk: supervise %s: %v\n", path, err)
		return 127
	}

	agent := exec.Command(path)
	agent.Args = argv
	agent.Stdin, agent.Stdout, agent.Stderr = os.Stdin, os.Stdout, os.Stderr
	agent.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := agent.Start(); err != nil {
		fmt.Fprintf(os.Stderr, "agentdesk: start %s: %v\n", path, err)
		return 127
	}
	// Let go of the agent's stdio: agentdesk must see EOF when the agent closes its stdout,
	// and the agent EOF on stdin when agentdesk closes it.
	if null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0); err == nil {
		for fd := range 3 {
			_ = unix.Dup2(int(null.Fd()), fd)
		}
		null.Close()
	}

	exited := make(chan syscall.WaitStatus, 1)
	go reap(agent.Process.Pid, exited)
	ended := make(chan struct{}) // agentdesk closed the control pipe, or died
	go func() {
		_, _ = io.Copy(io.Discard, control)
		close(ended)
	}()
	var st syscall.WaitStatus
	got := false
	select {
	case st = <-exited:
		got = true
	case <-ended:
	}
	left := killDescendants()
	if len(left) == 0 {
		fmt.Fprintln(report, "killed")
	} else {
		fmt.Fprintln(report, "left", strings.Trim(fmt.Sprint(left), "[]"))
	}
	report.Close()
	if !got {
		select {
		case st = <-exited: // killed with the rest
		case <-time.After(time.Second): // it could not be killed: it was reported
			return 1
		}
	}
	return mirrorExit(st)
}

// reap waits for every child (orphans of the agent's tree are re-parented here) and reports the
// agent's own exit status.
func reap(pid int, exited chan<- syscall.WaitStatus) {
	for {
		var st syscall.WaitStatus
		got, err := syscall.Wait4(-1, &st, 0, nil)
		if err == syscall.EINTR {
			continue
		}
		if err != nil { // ECHILD: nothing left to wait for
			return
		}
		if got == pid {
			exited <- st
		}
	}
}

// mirrorExit ends the supervisor as the agent ended: the same exit code, or the same signal.
func mirrorExit(st syscall.WaitStatus) int {
	if !st.Signaled() {
		return st.ExitStatus()
	}
	signal.Reset(st.Signal())
	_ = syscall.Kill(os.Getpid(), st.Signal())
	// The signal may be taken on another thread: wait for it to end the process instead of racing
	// it to os.Exit (which made the supervisor exit 143 rather than die of SIGTERM now and then).
	time.Sleep(time.Second)
	return 128 + int(st.Signal()) // a signal that does not end a process
}

// killDescendants SIGKILLs every process descended from this one until none runs, and returns
// those still running after killAllFor: killing a parent re-parents its children here
// (PR_SET_CHILD_SUBREAPER), and the next round finds them.
func killDescendants() []int {
	self := os.Getpid()
	deadline := time.Now().Add(killAllFor)
	for {
		pids := descendants(self)
		if len(pids) == 0 || time.Now().After(deadline) {
			return pids
		}
		for _, pid := range pids {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		time.Sleep(5 * time.Millisecond) // SIGKILL is delivered asynchronously
	}
}
