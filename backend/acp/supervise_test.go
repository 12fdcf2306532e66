//go:build linux

package acp_test

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"agentdesk/backend/supervise"
	"agentdesk/backend/supervise/proctest"
)

// familyAgent is an agent as the Claude adapter is: it ignores EOF on stdin and SIGTERM, and it
// has children: one in its process group, one that left it (setsid). It prints its pid and
// theirs, then runs until killed.
func familyAgent() {
	signalIgnore()
	inGroup := exec.Command("sleep", "300")
	away := exec.Command("sleep", "300")
	away.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if inGroup.Start() != nil || away.Start() != nil {
		os.Exit(2)
	}
	fmt.Printf("%d %d %d\n", os.Getpid(), inGroup.Process.Pid, away.Process.Pid)
	time.Sleep(time.Hour)
}

// appStartingFamily acts as agentdesk: it starts the family agent under its supervisor, prints
// the supervisor's pid and the family's, and waits to be killed.
func appStartingFamily() {
	enableSupervisor()
	p, err := supervise.Start(supervise.Command{Path: os.Args[0], Args: []string{"-test.run=^$"},
		Env: append(os.Environ(), "ACPTEST_AGENT=family"), Dir: os.TempDir()})
	if err != nil {
		fmt.Println("error", err)
		os.Exit(2)
	}
	line, err := bufio.NewReader(p).ReadString('\n')
	if err != nil {
		fmt.Printf("error: the agent said %q: %v; stderr: %s\n", line, err, p.StderrTail())
		os.Exit(2)
	}
	fmt.Printf("%d %s", p.Pid(), line)
	time.Sleep(time.Hour)
}

// TestAgentsDieWithAgentdesk: SIGKILL of agentdesk leaves no process of an agent behind — not
// the agent that ignores EOF and SIGTERM, not its child in its group, not the one that left it.
func TestAgentsDieWithAgentdesk(t *testing.T) {
	app, line := startApp(t, "app")
	names := []string{"supervisor", "agent", "child in the group", "child that left the group"}
	var pids [4]int
	if n, _ := fmt.Sscanf(line, "%d %d %d %d", &pids[0], &pids[1], &pids[2], &pids[3]); n != 4 {
		_ = app.Process.Kill()
		t.Fatalf("the app said %q", line)
	}
	procs := make([]named, len(pids))
	for i, pid := range pids {
		procs[i] = named{pid, fmt.Sprintf("%s (%d)", names[i], pid)}
	}
	if alive := killApp(t, app, procs, true); len(alive) > 0 {
		t.Fatalf("still running 10 s after agentdesk was killed: %s", strings.Join(alive, ", "))
	}
}

// startApp starts this test binary acting as agentdesk (ACPTEST_AGENT=kind, env added) and
// returns it with the first line it prints.
func startApp(t *testing.T, kind string, env ...string) (*exec.Cmd, string) {
	t.Helper()
	app := exec.Command(os.Args[0], "-test.run=^$")
	app.Env = append(append(os.Environ(), "ACPTEST_AGENT="+kind), env...)
	out, err := app.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	app.Stderr = os.Stderr
	if err := app.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		_ = app.Process.Kill()
		_ = app.Wait()
		t.Fatalf("the app said %q: %v", line, err)
	}
	return app, line
}

// named is a process and what a test calls it.
type named struct {
	pid  int
	name string
}

// killApp SIGKILLs app and returns the names of procs still running 10 s later, killing them.
// Each is held (proctest.Take) from before the kill, so that it keeps naming the same process even
// if its pid is reused; one that is not running then fails the test when mustRun, else is skipped.
func killApp(t *testing.T, app *exec.Cmd, procs []named, mustRun bool) []string {
	t.Helper()
	var held []*proctest.Hold
	var names []string
	for _, p := range procs {
		h, err := proctest.Take(p.pid)
		if err != nil {
			if mustRun {
				_ = app.Process.Kill()
				t.Fatalf("%s is not running: %v", p.name, err)
			}
			continue
		}
		defer h.Close()
		held, names = append(held, h), append(names, p.name)
	}
	if err := app.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = app.Wait()
	var alive []string
	for i, h := range held {
		if !h.Ended(10 * time.Second) {
			alive = append(alive, names[i])
			h.Kill()
		}
	}
	return alive
}
