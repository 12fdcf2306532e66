package supervisor_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"syscall"
	"testing"

	"agentdesk/backend/supervise/supervisor"
)

// TestProcsReadsAnOddlyNamedProcess: a process whose name holds spaces and parentheses (the
// name is the command's file name, which an agent picks) is read with its parent and group
// right, and Descendants finds it and its child below this process.
func TestProcsReadsAnOddlyNamedProcess(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	odd := filepath.Join(t.TempDir(), "a) b (c")
	if err := os.Symlink(sh, odd); err != nil {
		t.Fatal(err)
	}
	c := exec.Command(odd, "-c", "sleep 300 & echo $!; wait")
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := c.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = syscall.Kill(-c.Process.Pid, syscall.SIGKILL)
		_ = c.Wait()
	})
	var child int
	if n, _ := fmt.Fscan(out, &child); n != 1 {
		t.Fatal("the command did not say its child's pid")
	}
	var found bool
	for _, p := range supervisor.Procs() {
		if p.Pid == c.Process.Pid {
			found = true
			if p.PPid != os.Getpid() || p.Pgid != c.Process.Pid || p.Gone {
				t.Fatalf("read %+v; want parent %d, group %d, running", p, os.Getpid(), c.Process.Pid)
			}
		}
	}
	if !found {
		t.Fatalf("Procs() has no process %d", c.Process.Pid)
	}
	if got := supervisor.Descendants(os.Getpid()); !slices.Contains(got, c.Process.Pid) || !slices.Contains(got, child) {
		t.Fatalf("Descendants = %v; want %d and its child %d among them", got, c.Process.Pid, child)
	}
}
