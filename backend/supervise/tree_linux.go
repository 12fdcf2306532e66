package supervise

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"agentdesk/backend/supervise/supervisor"
)

// Tree is the process tree of a command agentdesk starts (an agent, a terminal's shell) as
// agentdesk holds it: how to end all of it, and, once the command has ended, what could not be
// ended. Under a supervisor (supervise_linux.go) that is every process descended from the
// command, whatever group or session it moved to; without one (EnableSupervisor was not called)
// it is the command's process group.
type Tree struct {
	cmd     *exec.Cmd
	control *os.File   // agentdesk's end of the supervisor's control pipe; nil without a supervisor
	report  *os.File   // the supervisor's report, read once it has exited
	theirs  []*os.File // the supervisor's ends, closed once it has started
	once    sync.Once
}

// Supervise rewrites c, not yet started and in a process group of its own, to run under a
// supervisor when EnableSupervisor was called and not refused (else it leaves c as it is), and
// returns its tree. Call Started once c has started (or failed to). It fails when
// EnableSupervisor found no supervisor binary, with the words of its error.
func Supervise(c *exec.Cmd, refuse bool) (*Tree, error) {
	t := &Tree{cmd: c}
	h := held.Load()
	if h == nil || refuse || c.Err != nil { // a command that cannot be found keeps failing in Start
		return t, nil
	}
	if h.err != nil {
		return nil, h.err
	}
	ctlR, ctlW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("supervise %s: %w", c.Path, err)
	}
	repR, repW, err := os.Pipe()
	if err != nil {
		ctlR.Close()
		ctlW.Close()
		return nil, fmt.Errorf("supervise %s: %w", c.Path, err)
	}
	t.control, t.report, t.theirs = ctlW, repR, []*os.File{ctlR, repW}
	c.ExtraFiles = t.theirs // supervisor.ControlFd, supervisor.ReportFd
	env := c.Env
	if env == nil {
		env = os.Environ()
	}
	c.Env = supervisor.StartEnv(env, os.Getpid())
	// argv: a name for ps, the command's path, then the command's own argv.
	c.Args = append([]string{supervisor.Name, c.Path}, c.Args...)
	c.Path = h.exe
	return t, nil
}

// Started closes the supervisor's ends of its pipes in agentdesk; if the start failed, agentdesk's
// own ends too.
func (t *Tree) Started(err error) {
	for _, f := range t.theirs {
		f.Close()
	}
	if err != nil && t.control != nil {
		t.control.Close()
		t.report.Close()
	}
}

// Kill ends the whole tree with SIGKILL: the supervisor kills every descendant, then exits as
// its child did; without one, the process group is killed. Safe to call more than once, and
// after the command has been waited for.
func (t *Tree) Kill() {
	t.once.Do(func() {
		if t.control != nil {
			t.control.Close()
			return
		}
		_ = syscall.Kill(-t.cmd.Process.Pid, syscall.SIGKILL)
	})
}

// Left returns, once the command has been waited for, the processes of the tree still running,
// and whether agentdesk can know: the supervisor's report (it exits only after killing
// everything it could), or, without one, the process group's members once they have had grace
// to die (processes that left the group are not seen then: known is false).
func (t *Tree) Left(grace time.Duration) (pids []int, known bool) {
	if t.control == nil {
		pgid := t.cmd.Process.Pid
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
		WaitGroupGone(pgid, grace)
		for _, p := range supervisor.Procs() {
			if p.Pgid == pgid && !p.Gone {
				pids = append(pids, p.Pid)
			}
		}
		return pids, false
	}
	t.Kill() // the supervisor has exited; agentdesk's end of the control pipe is of no more use
	raw, _ := io.ReadAll(t.report)
	t.report.Close()
	return supervisor.ParseReport(string(raw)) // unknown when it was killed before it could report
}
