package acp_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"
	"testing"
	"time"

	"go.uber.org/goleak"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/demoagent"
	"agentdesk/backend/acp/jsonrpc"
	"agentdesk/backend/acp/schema"
	"agentdesk/backend/supervise"
	"agentdesk/backend/supervise/proctest"
)

// TestMain lets this test binary act as an agent process: ACPTEST_AGENT picks which.
func TestMain(m *testing.M) {
	acp.CheckInvariants()
	switch os.Getenv("ACPTEST_AGENT") {
	case "":
		// Every agent of these tests runs under its supervisor, as in the app.
		remove := enableSupervisor()
		proctest.NoExitSleep()
		goleak.VerifyTestMain(noLateEvents{m, remove}) // every session, connection and pump goroutine ends with its owner
	case "demo":
		_ = demoagent.Serve(os.Stdin, os.Stdout, 0)
		os.Exit(0)
	case "crash":
		// Starts fine, then dies mid-turn with a message on stderr.
		serveScripted(func(req *jsonrpc.Request) {
			fmt.Fprintln(os.Stderr, "\x1b[31mfatal: model backend unreachable\x1b[0m")
			os.Exit(3)
		})
	case "mute":
		// Takes the prompt, closes its stdout and runs on (until a signal ends it).
		serveScripted(func(req *jsonrpc.Request) {
			os.Stdout.Close()
			time.Sleep(time.Hour)
		})
	case "stubborn":
		// Ignores session/cancel and SIGTERM, and leaves a grandchild in its process group.
		signalIgnore()
		child := exec.Command("sleep", "300")
		_ = child.Start()
		fmt.Fprintf(os.Stderr, "child %d\n", child.Process.Pid)
		serveScripted(func(req *jsonrpc.Request) {})
	default:
		processAgent(os.Getenv("ACPTEST_AGENT"))
	}
}

// enableSupervisor makes the agents this process starts run under the agentdesk-supervisor
// binary, as in the app: built for the run (proctest.Supervisor) in the test binary, the one it
// built in a child acting as agentdesk. It returns what removes the binary.
func enableSupervisor() (remove func()) {
	path, remove, err := proctest.Supervisor()
	if err == nil {
		err = supervise.EnableSupervisor(path)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	return remove
}

// noLateEvents fails a passing run in which a session produced an event after it was closed,
// or broke an invariant of its state machine.
// It then removes the supervisor binary built for the run.
type noLateEvents struct {
	m      *testing.M
	remove func()
}

func (n noLateEvents) Run() int {
	code := n.m.Run()
	n.remove()
	if late := acp.LateEvents(); late > 0 && code == 0 {
		fmt.Fprintf(os.Stderr, "FAIL: %d events were pushed after their session was closed (see the log)\n", late)
		return 1
	}
	if broken, first := acp.InvariantBreaks(); broken > 0 && code == 0 {
		fmt.Fprintf(os.Stderr, "FAIL: %d checks found an invariant of a session broken; the first: %s\n", broken, first)
		return 1
	}
	return code
}

// serveScripted is a minimal agent: initialize and session/new succeed; prompt calls onPrompt.
func serveScripted(onPrompt func(*jsonrpc.Request)) {
	h := &scripted{onPrompt: onPrompt}
	c := jsonrpc.NewConn(os.Stdin, os.Stdout, h, jsonrpc.WithLogf(func(string, ...any) {}))
	<-c.Done()
	os.Exit(0)
}

type scripted struct {
	quiet    // notifications
	onPrompt func(*jsonrpc.Request)
}

func (s *scripted) HandleRequest(req *jsonrpc.Request) {
	switch req.Method {
	case schema.MethodInitialize:
		replyInitialize(req)
	case schema.MethodSessionNew:
		req.Reply(map[string]any{"sessionId": "x1"}, nil)
	case schema.MethodSessionPrompt:
		s.onPrompt(req)
	default:
		req.Reply(nil, &jsonrpc.Error{Code: schema.CodeMethodNotFound, Message: req.Method})
	}
}

func signalIgnore() { signal.Ignore(syscall.SIGTERM) }

// runningInGroup lists the processes of group pgid that are not zombies, as ps(1) sees them.
func runningInGroup(pgid int) []string {
	out, _ := exec.Command("ps", "-eo", "pid=,pgid=,stat=").Output()
	var pids []string
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) == 3 && f[1] == fmt.Sprint(pgid) && !strings.HasPrefix(f[2], "Z") {
			pids = append(pids, f[0])
		}
	}
	return pids
}

// startProcess starts this test binary as agent kind, in its own process group.
func startProcess(t *testing.T, agentKind string) (*acp.Session, *events, *supervise.Process) {
	t.Helper()
	var proc *supervise.Process
	ev := newEvents()
	s := acp.NewSession(acp.Config{
		ID: "s1", AgentName: agentKind, Cwd: t.TempDir(), Emitter: ev, Logf: t.Logf, CloseGrace: 200 * time.Millisecond,
		Launch: func(context.Context) (acp.Transport, error) {
			p, err := supervise.Start(supervise.Command{Path: os.Args[0], Args: []string{"-test.run=^$"},
				Env: append(os.Environ(), "ACPTEST_AGENT="+agentKind), Dir: t.TempDir()})
			proc = p
			return p, err
		},
	})
	t.Cleanup(func() { s.Close() })
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	return s, ev, proc
}

func TestProcessDemoTurn(t *testing.T) {
	s, ev, _ := startProcess(t, "demo")
	if _, err := s.Prompt("hello"); err != nil {
		t.Fatal(err)
	}
	answerNext(t, s, ev, schema.AllowOnce)
	if end := ev.waitFor(t, "turn_end", kind(acp.EventTurnEnd)); end.StopReason != schema.StopEndTurn {
		t.Fatalf("stop reason %q", end.StopReason)
	}
}

func TestProcessExitMidTurn(t *testing.T) {
	s, ev, _ := startProcess(t, "crash")
	if _, err := s.Prompt("hello"); err != nil {
		t.Fatal(err)
	}
	end := ev.waitFor(t, "turn_end", kind(acp.EventTurnEnd))
	if end.StopReason != schema.StopError || !strings.Contains(end.Message, "exit status 3") ||
		!strings.Contains(end.Message, "fatal: model backend unreachable") || strings.Contains(end.Message, "\x1b") {
		t.Fatalf("turn_end %+v, want an error naming the exit status and the stderr tail without ANSI codes", end)
	}
	if st := ev.waitFor(t, "state", kind(acp.EventState)); st.State != acp.StateExited {
		t.Fatalf("state %s, want exited", st.State)
	}
	var stateErr *acp.StateError
	if _, err := s.Prompt("again"); !errors.Is(err, acp.ErrEnded) || !errors.As(err, &stateErr) || stateErr.State != acp.StateExited {
		t.Fatalf("prompt on an exited session: %v, want ErrEnded in state exited", err)
	}
}

// TestAgentThatClosesItsOutputIsStopped: an agent whose stdout ends while it runs on is of no
// use and would be an orphan: agentdesk stops it, and the turn's error says what happened.
func TestAgentThatClosesItsOutputIsStopped(t *testing.T) {
	s, ev, proc := startProcess(t, "mute")
	if _, err := s.Prompt("hello"); err != nil {
		t.Fatal(err)
	}
	end := ev.waitFor(t, "turn_end", kind(acp.EventTurnEnd))
	if end.StopReason != schema.StopError || !strings.Contains(end.Message, "the agent closed its output but did not exit") {
		t.Fatalf("turn_end %+v", end)
	}
	select {
	case <-proc.Exited():
	case <-time.After(20 * time.Second):
		t.Fatal("the agent still runs after its connection ended")
	}
	if st := proc.ExitStatus(); st != "signal: terminated" {
		t.Fatalf("the agent ended with %q, want the stop ladder's SIGTERM", st)
	}
	if s.State() != acp.StateExited {
		t.Fatalf("state %s, want exited", s.State())
	}
}

func TestHardStopKillsProcessGroup(t *testing.T) {
	s, ev, proc := startProcess(t, "stubborn")
	if _, err := s.Prompt("hello"); err != nil {
		t.Fatal(err)
	}
	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	if s.State() != acp.StateCancelling {
		t.Fatalf("state %s after Stop, want cancelling", s.State())
	}
	if err := s.HardStop(); err != nil {
		t.Fatal(err)
	}
	if end := ev.waitFor(t, "turn_end", kind(acp.EventTurnEnd)); end.StopReason != schema.StopInterrupted {
		t.Fatalf("stop reason %q, want interrupted", end.StopReason)
	}
	if pids := runningInGroup(proc.Pid()); len(pids) > 0 {
		t.Fatalf("processes %v of group %d still run after a hard stop", pids, proc.Pid())
	}
}
