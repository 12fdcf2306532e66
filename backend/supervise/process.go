package supervise

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// Command says how to start an agent. The process is started directly (no shell), in its own
// process group, with Dir as its working folder and Env as its whole environment.
type Command struct {
	Path string
	Args []string
	Env  []string
	Dir  string

	// Unsupervised runs it without its supervisor even when EnableSupervisor was called, as
	// where there is none: for the tests that show what the supervisor prevents.
	Unsupervised bool
}

// String renders the command line for messages.
func (c Command) String() string { return strings.Join(append([]string{c.Path}, c.Args...), " ") }

// Process is an agent child process: the engine's Transport (and EnvTransport) of a real agent.
type Process struct {
	cmd    *exec.Cmd
	tree   *Tree
	stdin  io.WriteCloser
	stdout io.ReadCloser
	errR   *os.File // the agent's stderr, drained into stderr
	stderr *Ring

	outEnd chan struct{} // closed when Read has seen the end of stdout
	endOut sync.Once
	exited chan struct{} // closed when the agent has exited; status and left are set then
	done   chan struct{} // closed when its tree is dead (or reported) and its pipes are closed
	mu     sync.Mutex
	status string
	left   []int // processes of its tree that could not be killed
	known  bool  // left is known (see Tree.Left)

	closeOnce sync.Once
}

// outputLinger is how long, once the agent's tree has been killed, agentdesk goes on reading
// the agent's stdout and stderr before it closes them: a process it could not kill may hold
// them open for ever, and the session must end all the same.
const outputLinger = time.Second

// treeKillWait bounds how long Close waits for a supervisor asked to kill its tree (it tries
// for killAllFor) before it kills the supervisor's process group itself.
const treeKillWait = killAllFor + 2*time.Second

// Start spawns cmd. It fails when the command cannot be found or started, or Dir is not an
// existing folder; the error names the command.
func Start(cmd Command) (*Process, error) {
	if st, err := os.Stat(cmd.Dir); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("start agent %q: working folder %q is not an existing folder", cmd.Path, cmd.Dir)
	}
	c := exec.Command(cmd.Path, cmd.Args...)
	c.Dir, c.Env = cmd.Dir, cmd.Env
	ownGroup(c)
	tr, err := Supervise(c, cmd.Unsupervised) // nothing it starts outlives it (supervise_linux.go)
	if err != nil {
		return nil, fmt.Errorf("start agent %q: %w", cmd.Path, err)
	}

	// Our own pipes, not cmd.StdoutPipe: Wait must not close the read end while the reader
	// still drains the last lines.
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("start agent %q: %w", cmd.Path, err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, fmt.Errorf("start agent %q: %w", cmd.Path, err)
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		outR.Close()
		outW.Close()
		return nil, fmt.Errorf("start agent %q: %w", cmd.Path, err)
	}
	c.Stdin, c.Stdout, c.Stderr = inR, outW, errW
	startErr := c.Start()
	tr.Started(startErr)
	inR.Close()
	outW.Close()
	errW.Close()
	if startErr != nil {
		inW.Close()
		outR.Close()
		errR.Close()
		return nil, fmt.Errorf("start agent %q: %w", cmd.Path, startErr)
	}
	p := &Process{cmd: c, tree: tr, stdin: inW, stdout: outR, errR: errR, stderr: NewRing(200, 64<<10),
		outEnd: make(chan struct{}), exited: make(chan struct{}), done: make(chan struct{})}
	errEnd := make(chan struct{})
	go func() {
		// Always drain stderr: an unread pipe fills up and blocks the agent.
		_, _ = io.Copy(p.stderr, errR)
		errR.Close()
		close(errEnd)
	}()
	go func() {
		err := c.Wait()
		status := "exit status 0"
		if err != nil {
			status = err.Error()
		}
		// The leader is gone; nothing it started may live on (npx → node → CLI, setsid children).
		left, known := tr.Left(outputLinger)
		p.mu.Lock()
		p.status, p.left, p.known = status, left, known
		p.mu.Unlock()
		close(p.exited)
		p.cutOutput(errEnd)
		close(p.done)
	}()
	return p, nil
}

// cutOutput waits up to outputLinger for the end of the agent's stdout and stderr, then closes
// them: a pending Read returns, and the session's connection ends.
func (p *Process) cutOutput(errEnd <-chan struct{}) {
	linger := time.NewTimer(outputLinger)
	defer linger.Stop()
	for _, end := range []<-chan struct{}{p.outEnd, errEnd} {
		select {
		case <-end:
		case <-linger.C:
			linger.Reset(0)
		}
	}
	p.closeStdout()
	p.errR.Close()
}

// closeStdout closes the read end of the agent's stdout, once.
func (p *Process) closeStdout() {
	p.endOut.Do(func() {
		p.stdout.Close()
		close(p.outEnd)
	})
}

// Pid is the agent's process group id: the agent's own process id, or its supervisor's when
// EnableSupervisor was called.
func (p *Process) Pid() int { return p.cmd.Process.Pid }

// Env is the agent's whole environment, the base of the terminals it asks for.
func (p *Process) Env() []string { return p.cmd.Env }

// Read reads the agent's stdout; the pipe is closed once it reports an error (EOF).
func (p *Process) Read(b []byte) (int, error) {
	n, err := p.stdout.Read(b)
	if err != nil {
		p.closeStdout()
	}
	return n, err
}

// Write writes to the agent's stdin.
func (p *Process) Write(b []byte) (int, error) { return p.stdin.Write(b) }

// Exited implements Transport.
func (p *Process) Exited() <-chan struct{} { return p.exited }

// ExitStatus implements Transport.
func (p *Process) ExitStatus() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.status
}

// StderrTail implements Transport.
func (p *Process) StderrTail() string { return p.stderr.String() }

// Close is the engine's Transport.Close: the stop ladder for the whole process tree. It returns once the
// agent has exited, its tree has been killed and its output closed; the error names the
// processes of the tree that could not be killed.
func (p *Process) Close(grace time.Duration) error {
	p.closeOnce.Do(func() {
		p.stdin.Close() // well-behaved agents exit on EOF
		pgid := p.cmd.Process.Pid
		if !p.waitExit(grace) {
			_ = TermGroup(pgid)
			if !p.waitExit(grace) {
				p.tree.Kill()
				if !p.waitExit(treeKillWait) { // a supervisor that cannot end: end it
					_ = KillGroup(pgid)
					_ = p.cmd.Process.Kill()
				}
			}
		}
		<-p.done
	})
	if left, _ := p.Left(); len(left) > 0 {
		return fmt.Errorf("stop the agent: %d of its processes could not be killed (%s): end them by hand", len(left), PidList(left))
	}
	return nil
}

// Left lists, once the agent has exited, the processes it started that could not be killed;
// known is false while it runs, and when agentdesk cannot know (without a supervisor, a process
// that left the agent's process group is not seen).
func (p *Process) Left() (pids []int, known bool) {
	select {
	case <-p.exited:
	default:
		return nil, false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.left, p.known
}

// PidList writes pids for a person: "pid 12, 34".
func PidList(pids []int) string {
	return "pid " + strings.Trim(strings.Join(strings.Fields(fmt.Sprint(pids)), ", "), "[]")
}

func (p *Process) waitExit(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.exited:
		return true
	case <-t.C:
		return false
	}
}
