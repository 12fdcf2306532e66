package supervisor

import (
	"os"
	"os/signal"
	"runtime"
	"syscall"
	"time"
)

// prSetChildSubreaper is PR_SET_CHILD_SUBREAPER of prctl(2) (golang.org/x/sys/unix has it, and
// would link encoding/binary and reflect into this small binary for one constant).
const prSetChildSubreaper = 36

// Main is the agentdesk-supervisor binary: it supervises the command its argv names (see the
// protocol in protocol.go) and returns the exit code to leave with, or dies of the command's
// signal. Started by hand, or by a process that is not its parent any more, it starts nothing.
func Main() int {
	want := os.Getenv(Env)
	if want == "" || len(os.Args) < 3 {
		say(Name + ": agentdesk starts this for each agent and terminal command; it is not for running by hand\n")
		return 2
	}
	agentdesk, gomaxprocs, had, err := parseEnv(want)
	if err != nil || agentdesk != os.Getppid() {
		return 2 // agentdesk is already gone: nothing may start that it cannot stop
	}
	// The command's own environment: without Env, with its own GOMAXPROCS or none (StartEnv).
	os.Unsetenv(Env)
	if had {
		os.Setenv("GOMAXPROCS", gomaxprocs)
	} else {
		os.Unsetenv("GOMAXPROCS")
	}
	return supervise(os.Args[1], os.Args[2:])
}

// supervise runs the command at path with argv and returns the exit code to leave with.
func supervise(path string, argv []string) int {
	// The command's parent-death signal belongs to the thread that forked it: keep it for good.
	runtime.LockOSThread()
	// Caught, not ignored: an ignored signal would stay ignored in the command after exec. The
	// stop ladder's SIGTERM and a typed Ctrl-C reach the command directly; the supervisor stays.
	signal.Notify(make(chan os.Signal, 1), syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	// A child ended: the command, or an orphan of its tree re-parented here. Asked for before the
	// fork, so that no end is missed; one pending wake is enough, as each reaps all.
	chld := make(chan os.Signal, 1)
	signal.Notify(chld, syscall.SIGCHLD)
	syscall.CloseOnExec(ControlFd) // the command must hold neither: they tell of agentdesk and of us
	syscall.CloseOnExec(ReportFd)
	if _, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0); errno != 0 {
		say("agentdesk: supervise " + path + ": " + errno.Error() + "\n")
		return 127
	}
	pid, err := syscall.ForkExec(path, argv, &syscall.ProcAttr{Env: syscall.Environ(), Files: []uintptr{0, 1, 2},
		Sys: &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}})
	if err != nil {
		say("agentdesk: start " + path + ": " + err.Error() + "\n")
		return 127
	}
	// Let go of the command's stdio: agentdesk must see EOF when the command closes its stdout,
	// and the command EOF on stdin when agentdesk closes it.
	if null, err := syscall.Open(os.DevNull, syscall.O_RDWR|syscall.O_CLOEXEC, 0); err == nil {
		for fd := range 3 {
			_ = syscall.Dup3(null, fd, 0)
		}
		syscall.Close(null)
	}

	ended := make(chan struct{}) // agentdesk closed the control pipe, or died
	go awaitEOF(ended)
	var st syscall.WaitStatus
	exited := false
	for !exited {
		select {
		case <-chld:
			exited = reap(pid, &st)
			continue
		case <-ended:
		}
		break
	}
	left := killDescendants()
	_, _ = syscall.Write(ReportFd, []byte(Report(left)))
	syscall.Close(ReportFd)
	if !exited {
		limit := time.NewTimer(time.Second)
		for !reap(pid, &st) { // it was killed with the rest
			select {
			case <-chld:
			case <-limit.C: // it could not be killed: it was reported
				return 1
			}
		}
	}
	return mirrorExit(st)
}

// awaitEOF closes ended once the control pipe reports EOF (or fails). Non-blocking, the pipe is
// read through the runtime's poller: no thread waits in read(2) for it.
func awaitEOF(ended chan<- struct{}) {
	_ = syscall.SetNonblock(ControlFd, true)
	control := os.NewFile(ControlFd, "control")
	var b [64]byte
	for {
		if _, err := control.Read(b[:]); err != nil {
			close(ended)
			return
		}
	}
}

// reap reaps every child that has ended (the command, orphans of its tree) without waiting, and
// reports whether the command was among them, setting st to its status then.
func reap(pid int, st *syscall.WaitStatus) bool {
	got := false
	for {
		var ws syscall.WaitStatus
		wpid, err := syscall.Wait4(-1, &ws, syscall.WNOHANG, nil)
		if err == syscall.EINTR {
			continue
		}
		if err != nil || wpid <= 0 { // ECHILD: no child left; 0: none has ended
			return got
		}
		if wpid == pid {
			*st, got = ws, true
		}
	}
}

// mirrorExit ends the supervisor as the command ended: the same exit code, or the same signal.
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
// those still running after KillAllFor: killing a parent re-parents its children here
// (PR_SET_CHILD_SUBREAPER), and the next round finds them.
func killDescendants() []int {
	self := os.Getpid()
	deadline := time.Now().Add(KillAllFor)
	for {
		pids := Descendants(self)
		if len(pids) == 0 || time.Now().After(deadline) {
			return pids
		}
		for _, pid := range pids {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		time.Sleep(5 * time.Millisecond) // SIGKILL is delivered asynchronously
	}
}

// say writes msg to stderr (the command's, until it has started; /dev/null after).
func say(msg string) { _, _ = os.Stderr.WriteString(msg) }
