package acp

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Transport is a running agent as the Session sees it: its stdout to read, its stdin to write,
// and a way to stop it. *Process is the real one; tests use in-process pipes (acptest).
type Transport interface {
	io.Reader // the agent's stdout
	io.Writer // the agent's stdin
	// Exited is closed when the agent has exited; ExitStatus then describes how.
	Exited() <-chan struct{}
	// ExitStatus is "" while the agent runs, then e.g. "exit status 1" or "signal: killed".
	ExitStatus() string
	// StderrTail is the last lines of the agent's stderr, ANSI escapes stripped.
	StderrTail() string
	// Close stops the agent: close stdin, wait up to grace, SIGTERM its process group, wait up to
	// grace, SIGKILL the group. It returns when the agent and (within grace) every process of
	// its group have ended. Safe to call twice.
	Close(grace time.Duration) error
}

// EnvTransport is a Transport that knows the environment it started the agent with: the
// session gives it to the agent's terminals when Config.Env is nil (see Session.terminalEnv).
type EnvTransport interface {
	Transport
	Env() []string
}

// Command says how to start an agent. The process is started directly (no shell), in its own
// process group, with Dir as its working folder and Env as its whole environment.
type Command struct {
	Path string
	Args []string
	Env  []string
	Dir  string
}

// String renders the command line for messages.
func (c Command) String() string { return strings.Join(append([]string{c.Path}, c.Args...), " ") }

// Process is an agent child process. It implements Transport and EnvTransport.
type Process struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout io.ReadCloser
	stderr *Ring

	exited chan struct{}
	mu     sync.Mutex
	status string

	closeOnce sync.Once
}

var (
	_ Transport    = (*Process)(nil)
	_ EnvTransport = (*Process)(nil)
)

// Start spawns cmd. It fails when the command cannot be found or started, or Dir is not an
// existing folder; the error names the command.
func Start(cmd Command) (*Process, error) {
	if st, err := os.Stat(cmd.Dir); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("start agent %q: working folder %q is not an existing folder", cmd.Path, cmd.Dir)
	}
	c := exec.Command(cmd.Path, cmd.Args...)
	c.Dir, c.Env = cmd.Dir, cmd.Env
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	superviseCmd(c) // dies with agentdesk, with every process it starts (supervise_linux.go)

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
	inR.Close()
	outW.Close()
	errW.Close()
	if startErr != nil {
		inW.Close()
		outR.Close()
		errR.Close()
		return nil, fmt.Errorf("start agent %q: %w", cmd.Path, startErr)
	}
	p := &Process{cmd: c, stdin: inW, stdout: outR, stderr: NewRing(200, 64<<10), exited: make(chan struct{})}
	go func() {
		// Always drain stderr: an unread pipe fills up and blocks the agent.
		_, _ = io.Copy(p.stderr, errR)
		errR.Close()
	}()
	go func() {
		err := c.Wait()
		status := "exit status 0"
		if err != nil {
			status = err.Error()
		}
		p.mu.Lock()
		p.status = status
		p.mu.Unlock()
		close(p.exited)
		// The leader is gone; make sure nothing it started lives on (npx → node → CLI).
		_ = syscall.Kill(-c.Process.Pid, syscall.SIGKILL)
	}()
	return p, nil
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
		p.stdout.Close()
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

// Close implements Transport: the stop ladder for the whole process group.
func (p *Process) Close(grace time.Duration) error {
	p.closeOnce.Do(func() {
		p.stdin.Close() // well-behaved agents exit on EOF
		pgid := p.cmd.Process.Pid
		if !p.waitExit(grace) {
			_ = syscall.Kill(-pgid, syscall.SIGTERM)
			if !p.waitExit(grace) {
				if err := syscall.Kill(-pgid, syscall.SIGKILL); err != nil {
					_ = p.cmd.Process.Kill()
				}
			}
		}
		<-p.exited // the wait goroutine then kills what is left of the group
		waitGroupGone(pgid, grace)
	})
	return nil
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
