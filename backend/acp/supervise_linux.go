package acp

import (
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"strconv"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// Agents die with agentdesk. The kernel's parent-death signal reaches only the direct child,
// and an agent's own children (npx → node → CLI), or an agent that ignores EOF on stdin, would
// run on unsupervised after a crash or a SIGKILL of agentdesk. So each agent runs under a
// supervisor: agentdesk's own binary re-executed, started in the agent's process group with a
// parent-death signal. It starts the agent, mirrors its exit, and when agentdesk dies it kills
// every process descended from it, including those that left the group (it is their subreaper).
// Terminals the agents ask for run under one too.

// superviseEnv marks a process started as a supervisor; its value is the pid of the agentdesk
// that started it, so a stray variable in a user's environment never turns agentdesk into one.
const superviseEnv = "AGENTDESK_SUPERVISE"

// parentGone is the supervisor's parent-death signal. Not SIGKILL: the supervisor must live to
// kill the agent's processes. Not SIGTERM: the stop ladder sends that to the whole group.
const parentGone = syscall.SIGUSR1

var supervisorExe atomic.Pointer[string]

// EnableSupervisor makes every agent and terminal started after it run under a supervisor, so
// that it dies with this process, however this process ends. exe is a path to the running
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

// superviseCmd rewrites c, not yet started and in a process group of its own, to run under a
// supervisor when EnableSupervisor was called; else it leaves c as it is.
func superviseCmd(c *exec.Cmd) {
	exe := supervisorExe.Load()
	if exe == nil || c.Err != nil { // a command that cannot be found keeps failing in Start
		return
	}
	env := c.Env
	if env == nil {
		env = os.Environ()
	}
	c.Env = append(env[:len(env):len(env)], superviseEnv+"="+strconv.Itoa(os.Getpid()))
	// argv: a name for ps, the agent's path, then the agent's own argv.
	c.Args = append([]string{"agentdesk-supervisor", c.Path}, c.Args...)
	c.Path = *exe
	if c.SysProcAttr == nil {
		c.SysProcAttr = &syscall.SysProcAttr{}
	}
	c.SysProcAttr.Pdeathsig = parentGone
}

// supervise runs the agent at path with argv and returns the exit code to leave with.
func supervise(path string, argv []string) int {
	// The parent-death signal belongs to the thread that forked the agent: keep it for good.
	runtime.LockOSThread()
	sigs := make(chan os.Signal, 8)
	// Caught, not ignored: an ignored signal would stay ignored in the agent after exec. The
	// stop ladder's SIGTERM reaches the agent directly; the supervisor waits for it to act.
	signal.Notify(sigs, parentGone, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	ppid := os.Getppid()
	_ = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)

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
	if os.Getppid() != ppid { // agentdesk died before the signal was being caught
		killDescendants()
		return 1
	}

	exited := make(chan syscall.WaitStatus, 1)
	go reap(agent.Process.Pid, exited)
	for {
		select {
		case st := <-exited:
			// What the agent leaves behind is agentdesk's to judge, as without a supervisor: it
			// kills an agent's group when the agent exits, a terminal's when it is released.
			return mirrorExit(st)
		case sig := <-sigs:
			if sig == parentGone && os.Getppid() != ppid {
				killDescendants()
				return 1
			}
		}
	}
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

// killDescendants SIGKILLs every process descended from this one, until none runs (or 5 s
// have passed): killing a parent re-parents its children here (PR_SET_CHILD_SUBREAPER), and the
// next round finds them.
func killDescendants() {
	self := os.Getpid()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		pids := descendants(self)
		if len(pids) == 0 {
			return
		}
		for _, pid := range pids {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		time.Sleep(5 * time.Millisecond) // SIGKILL is delivered asynchronously
	}
}
