package store

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// threadNices returns the nice value of each of the process's threads, from /proc.
func threadNices(t *testing.T) []int {
	t.Helper()
	stats, err := filepath.Glob("/proc/self/task/*/stat")
	if err != nil {
		t.Fatal(err)
	}
	var out []int
	for _, p := range stats {
		b, err := os.ReadFile(p)
		if err != nil {
			continue // the thread has gone
		}
		// Fields after the command's closing parenthesis: nice is the 17th (field 19 of stat).
		f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+2:]))
		if n, err := strconv.Atoi(f[16]); err == nil {
			out = append(out, n)
		}
	}
	return out
}

func TestWriterRunsOnAThreadOfLowerPriority(t *testing.T) {
	count := func() (n int) {
		for _, nice := range threadNices(t) {
			if nice == writerNice {
				n++
			}
		}
		return n
	}
	before := count()
	s := openTest(t)
	flush(t, s.Store) // the writer has started
	if got := count(); got != before+1 {
		t.Errorf("threads at nice %d: %d with a store open, %d before; want one more (the writer's)", writerNice, got, before)
	}
}
