package store

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// threadNice is the nice value of the process's thread tid, from /proc.
func threadNice(t *testing.T, tid int) int {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/self/task/%d/stat", tid))
	if err != nil {
		t.Fatalf("thread %d: %v", tid, err)
	}
	// Fields after the command's closing parenthesis: nice is the 17th (field 19 of stat).
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+2:]))
	n, err := strconv.Atoi(f[16])
	if err != nil {
		t.Fatalf("thread %d: nice field %q: %v", tid, f[16], err)
	}
	return n
}

// The writer's own thread is lowered, and only it: the test's thread keeps its priority. It
// looks at the writer's thread by id, since other tests' writer threads come and go meanwhile.
func TestWriterRunsOnAThreadOfLowerPriority(t *testing.T) {
	s := openTest(t)
	s.Writer().CreateSession(Session{ID: "s", AgentID: "demo", Title: "t"})
	flush(t, s.Store) // the writer has committed an op, so it has stored its thread before
	tid := int(s.Writer().thread.Load())
	if tid == 0 {
		t.Fatal("the writer reports no thread of its own: setpriority failed")
	}
	if got := threadNice(t, tid); got != writerNice {
		t.Errorf("the writer's thread %d runs at nice %d, want %d", tid, got, writerNice)
	}
	if me := syscall.Gettid(); me == tid || threadNice(t, me) == writerNice {
		t.Errorf("the test's own thread %d was lowered too", me)
	}
}
