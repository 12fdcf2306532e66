//go:build !linux

package supervise_test

import (
	"errors"
	"os/exec"
	"testing"
	"time"

	"agentdesk/backend/supervise"
)

// Where there is no supervision (supervise_other.go) nothing is started: Start and Supervise fail
// with ErrUnsupported, and no tree ever claims to know what it left. These run on that OS only;
// on Linux `GOOS=darwin go vet` and `GOOS=windows go vet` compile them.

// TestStartFailsClearlyWhereUnsupported: Start refuses, saying the OS is not supported yet.
func TestStartFailsClearlyWhereUnsupported(t *testing.T) {
	p, err := supervise.Start(supervise.Command{Path: "go", Args: []string{"version"}, Dir: t.TempDir()})
	if p != nil || !errors.Is(err, supervise.ErrUnsupported) {
		t.Fatalf("Start = %v, %v; want ErrUnsupported", p, err)
	}
}

// TestSuperviseFailsClearlyWhereUnsupported: Supervise refuses too, refused or not, and the
// fallbacks claim nothing.
func TestSuperviseFailsClearlyWhereUnsupported(t *testing.T) {
	for _, refuse := range []bool{false, true} {
		if tr, err := supervise.Supervise(exec.Command("go", "version"), refuse); tr != nil || !errors.Is(err, supervise.ErrUnsupported) {
			t.Fatalf("Supervise(refuse %v) = %v, %v; want ErrUnsupported", refuse, tr, err)
		}
	}
	if !supervise.WaitGroupGone(1, time.Millisecond) {
		t.Fatal("WaitGroupGone claims a group runs where none was ever started")
	}
	var tr supervise.Tree
	if left, known := tr.Left(0); left != nil || known {
		t.Fatalf("Left() = %v, %v; want nothing known", left, known)
	}
}
