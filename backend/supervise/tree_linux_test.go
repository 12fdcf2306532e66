//go:build linux

package supervise_test

import (
	"bufio"
	"errors"
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
	"agentdesk/backend/supervise/supervisor"
)

// supervisorPath is the agentdesk-supervisor binary built for these tests (TestMain).
var supervisorPath string

// roleEnv makes this test binary, started by a test, act as a command with a family (family).
const roleEnv = "SUPERVISETEST_ROLE"

// TestMain supervises with the agentdesk-supervisor binary, built for the tests as for agentdesk,
// and lets this test binary be the commands the tests supervise.
func TestMain(m *testing.M) {
	switch role := os.Getenv(roleEnv); role {
	case "":
		path, remove, err := proctest.Supervisor()
		if err == nil {
			supervisorPath = path
			err = supervise.EnableSupervisor(path) // as main does
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		proctest.NoExitSleep()
		code := m.Run()
		remove()
		os.Exit(code)
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

// members of a family, in the order family prints their pids.
var members = []string{"the command", "its child in its group", "its child in a session of its own", "its daemon grandchild"}

// held is a family, each member held by a pidfd from before anything of it could end.
type held []*proctest.Hold

// holdFamily reads the family's pids from its first line of output and holds each; the holds are
// let go, and what still runs of the family killed, when the test ends.
func holdFamily(t *testing.T, out *bufio.Reader) held {
	t.Helper()
	line, err := out.ReadString('\n')
	if err != nil {
		t.Fatalf("the command said %q: %v", line, err)
	}
	var pids [4]int
	if n, _ := fmt.Sscan(line, &pids[0], &pids[1], &pids[2], &pids[3]); n != 4 {
		t.Fatalf("the command said %q, want four pids", line)
	}
	var fam held
	for i, pid := range pids {
		h, err := proctest.Take(pid)
		if err != nil {
			t.Fatalf("%s: %v", members[i], err)
		}
		fam = append(fam, h)
	}
	t.Cleanup(func() {
		for _, h := range fam {
			h.Kill() // a failed test leaves nothing behind
			h.Close()
		}
	})
	return fam
}

// running names the members still running once every member has had up to 10 s to end (a
// SIGKILL lands asynchronously; only a member nobody killed reaches the bound).
func (f held) running() []string {
	var out []string
	for i, h := range f {
		if !h.Ended(10 * time.Second) {
			out = append(out, fmt.Sprintf("%s (pid %d)", members[i], h.Pid))
		}
	}
	return out
}

// startFamily starts this test binary as a family (role stay or leave) with supervise.Start.
func startFamily(t *testing.T, role string, unsupervised bool) (*supervise.Process, held) {
	t.Helper()
	p, err := supervise.Start(supervise.Command{Path: os.Args[0], Args: []string{"-test.run=^$"},
		Env: familyEnv(role), Dir: t.TempDir(), Unsupervised: unsupervised})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close(0) })
	out := bufio.NewReader(p)
	fam := holdFamily(t, out)
	go func() { _, _ = io.Copy(io.Discard, out) }() // the output ends with the family, not by a linger
	return p, fam
}

// familyEnv is the environment of a family of the given role.
func familyEnv(role string) []string { return append(os.Environ(), roleEnv+"="+role) }

// TestCloseEndsTheWholeTree: the stop ladder ends a command that ignores the end of its stdin and
// SIGTERM, and with it every process it started: its child in its group, its child that left
// for a session of its own, its daemon grandchild; Close says nothing was left.
func TestCloseEndsTheWholeTree(t *testing.T) {
	p, fam := startFamily(t, "stay", false)
	if err := p.Close(50 * time.Millisecond); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if alive := fam.running(); len(alive) > 0 {
		t.Fatalf("still running after Close: %s", strings.Join(alive, ", "))
	}
	if left, known := p.Left(); len(left) > 0 || !known {
		t.Fatalf("Left() = %v, %v; want nothing left, known", left, known)
	}
}

// TestTreeKillEndsTheWholeTree: Tree.Kill on a supervised command ends all of its family at
// once; the supervisor dies of the command's SIGKILL, reports that nothing was left, and a
// second Kill after the wait does nothing.
func TestTreeKillEndsTheWholeTree(t *testing.T) {
	c := exec.Command(os.Args[0], "-test.run=^$")
	c.Env = familyEnv("stay")
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	tr, err := supervise.Supervise(c, false)
	if err != nil {
		t.Fatal(err)
	}
	if c.Args[0] != supervisor.Name || !strings.HasPrefix(c.Path, "/proc/self/fd/") {
		t.Fatalf("the command runs as %s %q, not under its supervisor", c.Path, c.Args)
	}
	out, err := c.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	err = c.Start()
	tr.Started(err)
	if err != nil {
		t.Fatal(err)
	}
	fam := holdFamily(t, bufio.NewReader(out))
	tr.Kill()
	err = c.Wait()
	if st, ok := c.ProcessState.Sys().(syscall.WaitStatus); !ok || !st.Signaled() || st.Signal() != syscall.SIGKILL {
		t.Fatalf("the supervisor ended with %v, want it to die of its command's SIGKILL", err)
	}
	tr.Kill()
	if left, known := tr.Left(time.Second); len(left) > 0 || !known {
		t.Fatalf("Left() = %v, %v; want nothing left, known", left, known)
	}
	if alive := fam.running(); len(alive) > 0 {
		t.Fatalf("still running after Kill: %s", strings.Join(alive, ", "))
	}
}

// TestALeaderThatExitsTakesItsTreeAlong: when the command exits on its own, nothing it started
// lives on (not even what left its group), its exit status is kept, and Left says so at once.
func TestALeaderThatExitsTakesItsTreeAlong(t *testing.T) {
	leaveAndLeaveNothing(t)
}

// leaveAndLeaveNothing starts a supervised family (role leave), has its command exit with status
// 0, and fails unless that status is kept, Left knows nothing was left, and nothing of it runs.
func leaveAndLeaveNothing(t *testing.T) {
	t.Helper()
	p, fam := startFamily(t, "leave", false)
	if _, err := p.Write([]byte("exit\n")); err != nil {
		t.Fatal(err)
	}
	<-p.Exited()
	if st := p.ExitStatus(); st != "exit status 0" {
		t.Fatalf("exit status %q", st)
	}
	if left, known := p.Left(); len(left) > 0 || !known {
		t.Fatalf("Left() = %v, %v; want nothing left, known", left, known)
	}
	if alive := fam.running(); len(alive) > 0 {
		t.Fatalf("still running after the command exited: %s", strings.Join(alive, ", "))
	}
}

// TestWithoutASupervisorOnlyTheGroupEnds is what the supervisor is for: without one, a command
// that exits takes only its process group along; what left the group runs on, and Left does
// not claim to know otherwise.
func TestWithoutASupervisorOnlyTheGroupEnds(t *testing.T) {
	p, fam := startFamily(t, "leave", true)
	if p.Pid() != fam[0].Pid {
		t.Fatalf("Pid() = %d, want the command's own %d when it has no supervisor", p.Pid(), fam[0].Pid)
	}
	if _, err := p.Write([]byte("exit\n")); err != nil {
		t.Fatal(err)
	}
	<-p.Exited()
	if _, known := p.Left(); known {
		t.Fatal("Left() claims to know what is left without a supervisor")
	}
	if alive := fam[:2].running(); len(alive) > 0 {
		t.Fatalf("still running once the command exited: %s", strings.Join(alive, ", "))
	}
	for i, h := range fam[2:] {
		if h.Ended(0) {
			t.Fatalf("%s ended without a supervisor: this test no longer shows what one is for", members[2+i])
		}
	}
}

// TestStartNamesACommandThatCannotBeFound: a command not on PATH is refused by Start, named.
func TestStartNamesACommandThatCannotBeFound(t *testing.T) {
	_, err := supervise.Start(supervise.Command{Path: "agentdesk-no-such-agent", Dir: t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), `"agentdesk-no-such-agent"`) || !errors.Is(err, exec.ErrNotFound) {
		t.Fatalf("err = %v, want one that names the command and says it was not found", err)
	}
}
