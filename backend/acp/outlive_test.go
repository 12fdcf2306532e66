//go:build linux

package acp_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/acptest"
	"agentdesk/backend/acp/jsonrpc"
	"agentdesk/backend/acp/schema"
	"agentdesk/backend/supervise"
)

// Nothing outlives its session (issue 29): every process an agent or a terminal starts carries a
// marker in its environment (markEnv), and after the session ends no running process may carry it.

// markEnv names the marker variable; its value is unique to one test.
const markEnv = "ACPTEST_MARK"

func newMark() string { return "m" + rand.Text() }

// marked lists the running processes (zombies excluded) whose environment carries mark, as
// "pid (command)".
func marked(mark string) []string {
	want := []byte(markEnv + "=" + mark + "\x00")
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	var out []string
	for _, dir := range dirs {
		env, err := os.ReadFile(dir + "/environ")
		if err != nil || !bytes.Contains(append([]byte{0}, env...), append([]byte{0}, want...)) {
			continue
		}
		stat, err := os.ReadFile(dir + "/stat")
		if err != nil {
			continue
		}
		i := bytes.LastIndexByte(stat, ')')
		if f := strings.Fields(string(stat[i+1:])); len(f) > 0 && (f[0] == "Z" || f[0] == "X") {
			continue
		}
		comm, _ := os.ReadFile(dir + "/comm")
		out = append(out, fmt.Sprintf("%s (%s)", filepath.Base(dir), strings.TrimSpace(string(comm))))
	}
	return out
}

// noneMarked fails when a process carries mark, and kills it so that a failing run leaves
// nothing behind either.
func noneMarked(t *testing.T, mark, when string) {
	t.Helper()
	if left := killMarked(t, mark); len(left) > 0 {
		t.Fatalf("still running %s: %s", when, strings.Join(left, ", "))
	}
}

// killMarked SIGKILLs the processes that carry mark, waits until they have ended (SIGKILL lands
// asynchronously), and lists them.
func killMarked(t *testing.T, mark string) []string {
	t.Helper()
	left := marked(mark)
	for _, p := range left {
		if pid, err := strconv.Atoi(strings.Fields(p)[0]); err == nil {
			_ = syscall.Kill(pid, syscall.SIGKILL)
			waitProcessGone(t, pid)
		}
	}
	return left
}

// setsidChildAgent starts a child in a session of its own (it leaves the agent's process group
// and session), then serves prompts as a well-behaved agent that ends on EOF.
func setsidChildAgent() {
	away := exec.Command("sleep", "300")
	away.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if away.Start() != nil {
		os.Exit(2)
	}
	serveScripted(func(req *jsonrpc.Request) { req.Reply(schema.PromptResult{StopReason: schema.StopEndTurn}, nil) })
}

// holderAgent ignores session/cancel and SIGTERM, and its grandchild, in a session of its own,
// holds the agent's stdout and stderr: the agent's output never ends while it lives.
func holderAgent() {
	signalIgnore()
	holder := exec.Command("sleep", "300")
	holder.Stdout, holder.Stderr = os.Stdout, os.Stderr
	holder.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if holder.Start() != nil {
		os.Exit(2)
	}
	serveScripted(func(req *jsonrpc.Request) {})
}

// unsupervised is c run without a supervisor: a process that leaves the agent's process group
// then escapes every kill, as where there is no supervisor.
func unsupervised(c supervise.Command) supervise.Command {
	c.Unsupervised = true
	return c
}

// startMarked starts this test binary as agent kind, its environment marked with mark; each of
// wrap changes the command first.
func startMarked(t *testing.T, agentKind, mark string, wrap ...func(supervise.Command) supervise.Command) (*acp.Session, *events) {
	t.Helper()
	ev := newEvents()
	s := acp.NewSession(acp.Config{
		ID: "s1", AgentName: agentKind, Cwd: t.TempDir(), Emitter: ev, Logf: t.Logf, CloseGrace: 200 * time.Millisecond,
		HardStopAfter: -1,
		Launch: func(context.Context) (acp.Transport, error) {
			cmd := supervise.Command{Path: os.Args[0], Args: []string{"-test.run=^$"},
				Env: append(os.Environ(), "ACPTEST_AGENT="+agentKind, markEnv+"="+mark), Dir: t.TempDir()}
			for _, w := range wrap {
				cmd = w(cmd)
			}
			return supervise.Start(cmd)
		},
	})
	t.Cleanup(func() {
		s.Close()
		noneMarked(t, mark, "after the test") // a failed test must not leave sleeps behind
	})
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	return s, ev
}

// TestASetsidChildDiesWithItsAgent: an agent's child that left its process group and session
// does not outlive a normal end of the session.
func TestASetsidChildDiesWithItsAgent(t *testing.T) {
	mark := newMark()
	s, ev := startMarked(t, "setsidchild", mark)
	if _, err := s.Prompt("hello"); err != nil {
		t.Fatal(err)
	}
	if end := ev.waitFor(t, "turn_end", kind(acp.EventTurnEnd)); end.StopReason != schema.StopEndTurn {
		t.Fatalf("turn_end %+v", end)
	}
	if left := strings.Join(marked(mark), ", "); !strings.Contains(left, "(sleep)") {
		t.Fatalf("the agent's setsid child is not running before the end: %s", left)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	noneMarked(t, mark, "after the session ended")
}

// TestHardStopEndsTheTurnWhenAGrandchildHoldsTheOutput: an agent that ignores Stop and SIGTERM,
// whose grandchild in a new session holds its stdout and stderr, is stopped hard within
// seconds: the turn ends, nothing of it is left, and the words say its processes were killed.
func TestHardStopEndsTheTurnWhenAGrandchildHoldsTheOutput(t *testing.T) {
	mark := newMark()
	s, ev := startMarked(t, "holder", mark)
	end := hardStopHolder(t, s, ev, mark)
	noneMarked(t, mark, "after the hard stop")
	if end.StopReason != schema.StopInterrupted || end.Message != "stopped hard: the agent's processes were killed" {
		t.Fatalf("turn_end %+v", end)
	}
}

// TestHardStopEndsTheTurnWhenASurvivorHoldsTheOutput: when a process holding the agent's output
// could not be killed (here: no supervisor, and it left the agent's process group), the hard
// stop still ends the turn within seconds, and its words do not claim every process was killed.
func TestHardStopEndsTheTurnWhenASurvivorHoldsTheOutput(t *testing.T) {
	mark := newMark()
	s, ev := startMarked(t, "holder", mark, unsupervised)
	end := hardStopHolder(t, s, ev, mark)
	if left := strings.Join(killMarked(t, mark), ", "); !strings.Contains(left, "(sleep)") {
		t.Fatalf("the survivor is gone (%q): this test no longer proves anything", left)
	}
	if end.StopReason != schema.StopInterrupted || end.Message != "stopped hard: the agent's process group was killed" {
		t.Fatalf("turn_end %+v, want words that claim no more than the group's end", end)
	}
}

// hardStopHolder prompts the holder agent, presses Stop, then hard-stops it, and returns the
// turn's end, failing unless both the turn and the hard stop end within 15 s.
func hardStopHolder(t *testing.T, s *acp.Session, ev *events, mark string) acp.Event {
	t.Helper()
	if _, err := s.Prompt("hello"); err != nil {
		t.Fatal(err)
	}
	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	if left := strings.Join(marked(mark), ", "); !strings.Contains(left, "(sleep)") {
		t.Fatalf("the grandchild is not running before the hard stop: %s", left)
	}
	deadline := time.After(15 * time.Second)
	stopped := make(chan error, 1)
	go func() { stopped <- s.HardStop() }()
	var end acp.Event
	for end.Kind != acp.EventTurnEnd {
		select {
		case end = <-ev.feed:
		case <-deadline:
			t.Fatal("the turn did not end within 15 s of the hard stop")
		}
	}
	select {
	case <-stopped: // an error names the processes that could not be killed
	case <-deadline:
		t.Fatal("HardStop did not return within 15 s")
	}
	return end
}

// daemonLine starts a daemon (double fork, new session, stdio on /dev/null) and prints its pid
// as "daemon PID".
const daemonLine = `echo daemon $( (setsid sh -c 'echo $$; exec sleep 300 </dev/null >/dev/null 2>&1' &) )`

// runDaemons is an agent's turn: a terminal whose command starts a daemon and exits, and one whose
// command starts a daemon and runs on. It returns both terminals' output once the second
// has printed its daemon's pid.
func runDaemons(c *jsonrpc.Conn, mark string, ev *events) (string, error) {
	env := []schema.EnvVariable{{Name: markEnv, Value: mark}}
	first, err := createTerminal(c, schema.CreateTerminalParams{Command: daemonLine, Env: env})
	if err != nil {
		return "", err
	}
	var exit schema.TerminalExitStatus
	if err := terminalCall(c, schema.MethodTerminalWaitForExit, first, &exit); err != nil {
		return "", err
	}
	var out schema.TerminalOutputResult
	if err := terminalCall(c, schema.MethodTerminalOutput, first, &out); err != nil {
		return "", err
	}
	if _, err := createTerminal(c, schema.CreateTerminalParams{Command: daemonLine + "; exec sleep 300", Env: env}); err != nil {
		return "", err
	}
	for e := range ev.feed {
		if tc, ok := terminalContent(e); ok && tc.TerminalID != first && strings.Contains(tc.Output, "daemon ") {
			return out.Output + tc.Output, nil
		}
	}
	return "", fmt.Errorf("no output")
}

// TestADaemonFromATerminalDiesWithTheSession: daemons started from an agent's terminals, by a
// command that has exited and by one still running, do not outlive the session.
func TestADaemonFromATerminalDiesWithTheSession(t *testing.T) {
	mark := newMark()
	said := make(chan string, 1)
	var ev *events
	s, ev, _ := startTerminals(t, t.TempDir(), func(c *jsonrpc.Conn, req *jsonrpc.Request) {
		out, err := runDaemons(c, mark, ev)
		said <- fmt.Sprint(out, err)
		req.Reply(schema.PromptResult{StopReason: schema.StopEndTurn}, nil)
	})
	t.Cleanup(func() { noneMarked(t, mark, "after the test") })
	if _, err := s.Prompt("go"); err != nil {
		t.Fatal(err)
	}
	out := <-said
	if strings.Count(out, "daemon ") != 2 || strings.Contains(out, "daemon \n") {
		t.Fatalf("the terminals said %q, want two daemons' pids", out)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	noneMarked(t, mark, "after the session ended")
}

// appWithDaemons acts as agentdesk: a session whose in-process agent runs runDaemons; it prints
// "ready" once both daemons run, then waits to be killed.
func appWithDaemons() {
	enableSupervisor()
	mark := os.Getenv(markEnv)
	os.Unsetenv(markEnv) // only what the terminals start carries it
	ev := newEvents()
	said := make(chan string, 1)
	s := acp.NewSession(acp.Config{ID: "s1", AgentName: "terminals", Cwd: os.TempDir(), Emitter: ev,
		Logf: func(string, ...any) {},
		Launch: func(context.Context) (acp.Transport, error) {
			return acptest.ServeHandler(func(c *jsonrpc.Conn) jsonrpc.Handler {
				return &promptAgent{conn: c, onPrompt: func(c *jsonrpc.Conn, req *jsonrpc.Request) {
					out, err := runDaemons(c, mark, ev)
					said <- fmt.Sprint(out, err)
				}}
			}), nil
		}})
	if err := s.Start(context.Background()); err != nil {
		fmt.Println("error", err)
		os.Exit(2)
	}
	if _, err := s.Prompt("go"); err != nil {
		fmt.Println("error", err)
		os.Exit(2)
	}
	fmt.Printf("ready %q\n", <-said)
	time.Sleep(time.Hour)
}

// TestADaemonFromATerminalDiesWithAgentdesk: SIGKILL of agentdesk leaves no daemon of its
// terminals behind, whether the command that started it has exited or still runs.
func TestADaemonFromATerminalDiesWithAgentdesk(t *testing.T) {
	mark := newMark()
	t.Cleanup(func() { noneMarked(t, mark, "after the test") })
	app, line := startApp(t, "daemonapp", markEnv+"="+mark)
	if !strings.HasPrefix(line, "ready") || strings.Count(line, "daemon ") != 2 {
		_ = app.Process.Kill()
		t.Fatalf("the app said %q", line)
	}
	var procs []named
	for _, p := range marked(mark) {
		pid, _ := strconv.Atoi(strings.Fields(p)[0])
		procs = append(procs, named{pid, p})
	}
	if alive := killApp(t, app, procs, false); len(alive) > 0 {
		t.Fatalf("still running 10 s after agentdesk was killed: %s", strings.Join(alive, ", "))
	}
	noneMarked(t, mark, "after agentdesk was killed")
}
