//go:build unix

// Package asnobody lets a test that depends on file permissions run as an unprivileged user
// when the suite runs as root (CI does), where permission checks would not apply. It is for
// tests only; it starts nothing unless a test calls Rerun as root.
package asnobody

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"syscall"
	"testing"
)

// UID is the user (nobody) a permission test runs as when the suite runs as root, which
// ignores file permissions.
const UID = 65534

// Rerun makes a permission test meaningful as root: it runs the calling test again in a child
// process as nobody (the test binary copied where nobody can run it, with TMPDIR, HOME and
// XDG_DATA_HOME in a folder nobody may write) and reports its result, then returns true: the
// caller returns at once. As any other user it returns false and the test runs here.
func Rerun(t *testing.T) bool {
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
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: UID, Gid: UID}}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the test as uid %d failed (%v):\n%s", UID, err, out)
	}
	if !regexp.MustCompile(`(?m)^--- PASS: ` + regexp.QuoteMeta(t.Name()) + ` `).Match(out) {
		t.Fatalf("the test as uid %d did not pass:\n%s", UID, out)
	}
	t.Logf("ran as uid %d:\n%s", UID, out)
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
