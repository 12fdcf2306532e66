//go:build unix

package main

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"syscall"
	"testing"
)

// unprivilegedUID is the user (nobody) a permission test runs as when the suite runs as root,
// which ignores file permissions.
const unprivilegedUID = 65534

// rerunUnprivileged makes a permission test meaningful as root: it runs the calling test again
// in a child process as nobody and reports its result, then returns true (the caller returns at
// once). As any other user it returns false and the test runs here. (The same helper as
// backend/store's, which test packages cannot share.)
func rerunUnprivileged(t *testing.T) bool {
	t.Helper()
	if os.Geteuid() != 0 {
		return false
	}
	// The test binary and the child's temp dir must be reachable by nobody; go test's own
	// folders are private to root.
	dir, err := os.MkdirTemp("", "agentdesk-nobody-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	bin := filepath.Join(dir, "agentdesk.test")
	tmp := filepath.Join(dir, "tmp")
	if err := copyFile(os.Args[0], bin, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(tmp, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(tmp, 0o1777); err != nil { // as /tmp: anyone may create files
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-test.run=^"+regexp.QuoteMeta(t.Name())+"$", "-test.count=1", "-test.v")
	cmd.Dir = tmp
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp, "HOME="+tmp, "XDG_DATA_HOME="+tmp)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: unprivilegedUID, Gid: unprivilegedUID}}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the test as uid %d failed (%v):\n%s", unprivilegedUID, err, out)
	}
	if !regexp.MustCompile(`(?m)^--- PASS: ` + regexp.QuoteMeta(t.Name()) + ` `).Match(out) {
		t.Fatalf("the test as uid %d did not pass:\n%s", unprivilegedUID, out)
	}
	t.Logf("ran as uid %d:\n%s", unprivilegedUID, out)
	return true
}

func copyFile(from, to string, mode os.FileMode) error {
	src, err := os.Open(from)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return err
	}
	if _, err := io.Copy(dst, src); err != nil {
		dst.Close()
		return err
	}
	return dst.Close()
}
