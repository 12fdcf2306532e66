//go:build unix

package worktree

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// BenchmarkWorktreeStart: making a session's worktree (git worktree add, which checks out every
// file) of a 20,000-file repository, over `git status` of the same repository in the same run
// (metric create_vs_status; the budget's goal is at most 3×), and its time (create-ms).
func BenchmarkWorktreeStart(b *testing.B) {
	ctx := context.Background()
	repo := filepath.Join(b.TempDir(), "big")
	for d := 0; d < 200; d++ {
		dir := filepath.Join(repo, fmt.Sprintf("pkg%03d", d))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			b.Fatal(err)
		}
		for f := 0; f < 100; f++ {
			text := fmt.Sprintf("package pkg%03d\n\n// File %d of a big repository.\nfunc F%d() int { return %d }\n", d, f, f, f)
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%03d.go", f)), []byte(text), 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	git(b, filepath.Dir(repo), "init", "-q", "-b", "main", repo)
	git(b, repo, "add", "-A")
	git(b, repo, "commit", "-q", "-m", "20,000 files")
	status := exec.Command("git", "status", "--porcelain")
	status.Dir = repo
	if err := status.Run(); err != nil { // a warm index, as a person's repository has
		b.Fatal(err)
	}
	// The files just written are on their way to the disk: the kernel throttles new writes
	// until they are, which would be measured as the worktree's.
	syscall.Sync()
	m := NewManager(filepath.Join(b.TempDir(), "worktrees"), CLI{})
	var made, statused time.Duration
	var trees []Tree
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		began := time.Now()
		st := exec.Command("git", "status", "--porcelain")
		st.Dir = repo
		if err := st.Run(); err != nil {
			b.Fatal(err)
		}
		statused += time.Since(began)
		began = time.Now()
		tr, err := m.Create(ctx, repo, fmt.Sprintf("bench-%d", i))
		if err != nil {
			b.Fatal(err)
		}
		made += time.Since(began)
		trees = append(trees, tr)
	}
	b.StopTimer()
	// Removed only now: on a file system mounted with online discard (this VM's), creating
	// files soon after many were deleted is many times slower, and that would be measured.
	for _, tr := range trees {
		if err := m.Discard(ctx, tr); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(made)/float64(statused), "create_vs_status")
	b.ReportMetric(float64(made.Milliseconds())/float64(b.N), "create-ms")
}
