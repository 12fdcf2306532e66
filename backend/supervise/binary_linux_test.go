//go:build linux

package supervise_test

import (
	"bufio"
	"debug/elf"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"agentdesk/backend/supervise"
	"agentdesk/backend/supervise/supervisor"
)

// The supervisor is a binary of its own (cmd/agentdesk-supervisor), found next to agentdesk's.

// TestSupervisorLoadsNoSharedLibrary: the supervisor binary is static and links nothing of
// agentdesk but its own package, so that a session pays none of the shared libraries'
// relocations nor any package's init for it (agentdesk re-executed cost 11.7 MiB a session).
func TestSupervisorLoadsNoSharedLibrary(t *testing.T) {
	f, err := elf.Open(supervisorPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP || p.Type == elf.PT_DYNAMIC {
			t.Fatalf("%s is dynamically linked (%v): it would load shared libraries in every session", supervisorPath, p.Type)
		}
	}
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}",
		"agentdesk/cmd/"+supervisor.Name).Output()
	if err != nil {
		t.Fatal(err)
	}
	want := "agentdesk/backend/supervise/supervisor agentdesk/cmd/agentdesk-supervisor"
	if got := strings.Join(strings.Fields(string(out)), " "); got != want {
		t.Fatalf("the supervisor links %s; want only %s and the standard library", got, want)
	}
}

// TestAMissingSupervisorFailsEveryStart: without the supervisor binary, EnableSupervisor's error
// names it, where it was looked for and how to build it, and every start fails with those words
// rather than run a command unsupervised; a file that is not executable is refused too.
func TestAMissingSupervisorFailsEveryStart(t *testing.T) {
	t.Cleanup(func() { _ = supervise.EnableSupervisor(supervisorPath) })
	dir := t.TempDir()
	plain := filepath.Join(dir, "plain")
	if err := os.WriteFile(plain, []byte("#!/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{filepath.Join(dir, supervisor.Name), plain, dir} {
		err := supervise.EnableSupervisor(path)
		if err == nil {
			t.Fatalf("EnableSupervisor(%s) = nil", path)
		}
		for _, words := range []string{supervisor.Name, path, "go build -o " + path + " ./cmd/agentdesk-supervisor", "Reinstall agentdesk"} {
			if !strings.Contains(err.Error(), words) {
				t.Fatalf("EnableSupervisor(%s) = %q; want it to say %q", path, err, words)
			}
		}
		p, startErr := supervise.Start(supervise.Command{Path: "true", Dir: dir})
		if p != nil || startErr == nil || !strings.Contains(startErr.Error(), err.Error()) {
			t.Fatalf("Start = %v, %v; want it to fail with %q", p, startErr, err)
		}
	}
}

// TestTheSupervisorIsHeldFromStart: the binary EnableSupervisor found is the one that runs, even
// once its file was removed or replaced (an upgrade while agentdesk runs): nothing pairs this
// agentdesk with another version's supervisor.
func TestTheSupervisorIsHeldFromStart(t *testing.T) {
	t.Cleanup(func() { _ = supervise.EnableSupervisor(supervisorPath) })
	path := filepath.Join(t.TempDir(), supervisor.Name)
	copyFile(t, supervisorPath, path)
	if err := supervise.EnableSupervisor(path); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("#!/bin/sh\nexit 99\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	leaveAndLeaveNothing(t) // a supervisor run from the replaced file would exit 99
}

// TestASupervisorNotStartedByItsParentStartsNothing: run by hand, or by a process that is not
// its parent (an agentdesk already gone), the supervisor starts nothing and says why when run by
// hand.
func TestASupervisorNotStartedByItsParentStartsNothing(t *testing.T) {
	dir := t.TempDir()
	mark := filepath.Join(dir, "started")
	for _, env := range []string{"", supervisor.Env + "=1", supervisor.Env + "=" + strconv.Itoa(os.Getppid())} {
		c := exec.Command(supervisorPath, "/bin/sh", "sh", "-c", "touch "+mark)
		c.Env = append(os.Environ(), env)
		out, err := c.CombinedOutput()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 2 {
			t.Fatalf("with %q: %v (%s); want exit status 2", env, err, out)
		}
		if _, err := os.Stat(mark); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("with %q the command was started", env)
		}
		if env == "" && !strings.Contains(string(out), "not for running by hand") {
			t.Fatalf("run by hand it said %q", out)
		}
	}
}

// copyFile copies the file at from to a new executable file at to.
func copyFile(t *testing.T, from, to string) {
	t.Helper()
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, bufio.NewReader(in)); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestTheCommandGetsItsOwnEnvironment: the supervisor runs with one P (GOMAXPROCS=1: each more
// costs it private memory), and its command gets its own environment back: its own GOMAXPROCS or
// none, and nothing of the supervisor's protocol.
func TestTheCommandGetsItsOwnEnvironment(t *testing.T) {
	for _, own := range []string{"", "GOMAXPROCS=3"} {
		env := []string{"PATH=" + os.Getenv("PATH")}
		want := "unset unset\n"
		if own != "" {
			env, want = append(env, own), "3 unset\n"
		}
		p, err := supervise.Start(supervise.Command{Path: "sh", Dir: t.TempDir(), Env: env,
			Args: []string{"-c", `echo "${GOMAXPROCS-unset} ${` + supervisor.Env + `-unset}"; read line`}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = p.Close(0) })
		out := bufio.NewReader(p)
		if line, err := out.ReadString('\n'); line != want {
			t.Fatalf("with %q the command saw %q (%v); want %q", own, line, err, want)
		}
		environ, err := os.ReadFile("/proc/" + strconv.Itoa(p.Pid()) + "/environ")
		if err != nil {
			t.Fatal(err)
		}
		if vars := strings.Split(string(environ), "\x00"); !slices.Contains(vars, "GOMAXPROCS=1") {
			t.Fatalf("the supervisor ran with %q, want GOMAXPROCS=1 among them", vars)
		}
		if _, err := p.Write([]byte("done\n")); err != nil {
			t.Fatal(err)
		}
		go func() { _, _ = io.Copy(io.Discard, out) }()
		<-p.Exited()
		if st := p.ExitStatus(); st != "exit status 0" {
			t.Fatalf("exit status %q", st)
		}
	}
}
