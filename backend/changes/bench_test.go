//go:build unix

package changes

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"syscall"
	"testing"
	"time"
)

// The ledger's benchmark (make bench): a generated project of 20,000 files (200 MB, a git
// repository with history). It prints the cost of a turn's snapshot against `git status` in
// the same run (snapshot_vs_git_status, target ≤ 2), the same with 50 files changed, the cost
// of the alternative the ledger did not take (a private git index and object store: `git add
// -A` + `write-tree` with GIT_DIR elsewhere) against git status, and how much the store grows
// per turn with one file changed (target: about the size of that change).
const (
	benchFiles    = 20_000
	benchFileSize = 10 << 10
	benchPerDir   = 50
)

func BenchmarkLedgerProject(b *testing.B) {
	if _, err := exec.LookPath("git"); err != nil {
		b.Skip("git is not installed")
	}
	proj := b.TempDir()
	genProject(b, proj)
	l, err := Open(b.TempDir(), Options{})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	first := time.Now()
	if _, err := l.Snapshot(ctx, proj); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(time.Since(first).Milliseconds()), "first_snapshot_ms")
	priv := filepath.Join(b.TempDir(), "git")
	privGit(b, proj, priv, "init", "-q")
	privGit(b, proj, priv, "add", "-A")

	b.ResetTimer()
	for range b.N {
		// No change between two snapshots: the turn-start case.
		git := median(5, func() { gitStatus(b, proj) })
		snapT := median(5, func() { mustSnap(b, l, proj) })
		privT := median(5, func() { privGit(b, proj, priv, "add", "-A"); privGit(b, proj, priv, "write-tree") })
		b.ReportMetric(ms(snapT), "snapshot_ms")
		b.ReportMetric(ms(git), "git_status_ms")
		b.ReportMetric(float64(snapT)/float64(git), "snapshot_vs_git_status")
		b.ReportMetric(float64(privT)/float64(git), "private_git_vs_git_status")

		// 50 files changed by the turn.
		round := 0
		var changed50, git50 time.Duration
		for range 5 {
			round++
			touch(b, proj, 50, round)
			start := time.Now()
			gitStatus(b, proj)
			git50 += time.Since(start)
			start = time.Now()
			mustSnap(b, l, proj)
			changed50 += time.Since(start)
		}
		b.ReportMetric(ms(changed50/5), "snapshot_50_changed_ms")
		b.ReportMetric(float64(changed50)/float64(git50), "snapshot_50_changed_vs_git_status")

		// Store growth with one file changed.
		mustSnap(b, l, proj)
		touch(b, proj, 1, 1000+round)
		s := mustSnap(b, l, proj)
		b.ReportMetric(float64(s.Stored), "store_bytes_one_file_turn")
		b.ReportMetric(float64(s.Stored)/benchFileSize, "store_growth_vs_change")
	}
}

// genProject writes the project and commits it twice (a repository with history).
func genProject(b *testing.B, dir string) {
	buf := make([]byte, benchFileSize)
	old := time.Now().Add(-time.Hour) // written "earlier": no file is too fresh to trust
	for i := range benchFiles {
		d := filepath.Join(dir, fmt.Sprintf("pkg%03d", i/benchPerDir/20), fmt.Sprintf("sub%02d", i/benchPerDir%20))
		if i%benchPerDir == 0 {
			if err := os.MkdirAll(d, 0o755); err != nil {
				b.Fatal(err)
			}
		}
		for k := range buf {
			buf[k] = byte('a' + (i*7+k*13)%26)
			if k%80 == 79 {
				buf[k] = '\n'
			}
		}
		p := filepath.Join(d, fmt.Sprintf("file%05d.txt", i))
		if err := os.WriteFile(p, buf, 0o644); err != nil {
			b.Fatal(err)
		}
		os.Chtimes(p, old, old)
	}
	os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("*.log\n"), 0o644)
	run(b, dir, "git", "init", "-q")
	run(b, dir, "git", "add", "-A")
	run(b, dir, "git", "-c", "user.name=b", "-c", "user.email=b@b", "commit", "-qm", "one")
	touch(b, dir, 100, 0)
	run(b, dir, "git", "-c", "user.name=b", "-c", "user.email=b@b", "commit", "-qam", "two")
	gitStatus(b, dir) // refresh the index's stat cache, as a person's git would have
}

// touch rewrites n files spread over the project.
func touch(b *testing.B, dir string, n, round int) {
	for i := range n {
		k := (i*397 + round*31) % benchFiles
		p := filepath.Join(dir, fmt.Sprintf("pkg%03d", k/benchPerDir/20), fmt.Sprintf("sub%02d", k/benchPerDir%20), fmt.Sprintf("file%05d.txt", k))
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			b.Fatal(err)
		}
		fmt.Fprintf(f, "round %d\n", round)
		f.Close()
	}
}

func mustSnap(b *testing.B, l *Ledger, dir string) Snap {
	s, err := l.Snapshot(context.Background(), dir)
	if err != nil {
		b.Fatal(err)
	}
	return s
}

func gitStatus(b *testing.B, dir string) { run(b, dir, "git", "status", "--porcelain") }

func privGit(b *testing.B, work, gitDir string, args ...string) {
	run(b, work, "git", append([]string{"--git-dir=" + gitDir, "--work-tree=" + work}, args...)...)
}

func run(b *testing.B, dir, name string, args ...string) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("%s %v: %v\n%s", name, args, err, out)
	}
}

func median(n int, f func()) time.Duration {
	ds := make([]time.Duration, n)
	for i := range ds {
		start := time.Now()
		f()
		ds[i] = time.Since(start)
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	return ds[n/2]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// BenchmarkLedgerTinyFiles: what the ledger spends on disk per tiny file (12 bytes, 50 to a
// folder) when it records a folder of them: disk_bytes_per_tiny_file counts the blocks of the
// ledger's directory (what du says), for content of 12 bytes a file.
func BenchmarkLedgerTinyFiles(b *testing.B) {
	const files, perDir = 10_000, 50
	proj := b.TempDir()
	for i := range files {
		d := filepath.Join(proj, fmt.Sprintf("d%03d", i/perDir))
		if i%perDir == 0 {
			if err := os.MkdirAll(d, 0o755); err != nil {
				b.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(d, fmt.Sprintf("f%05d", i)), fmt.Appendf(nil, "tiny %06d\n", i), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	for range b.N {
		b.StopTimer()
		dir := b.TempDir()
		l, err := Open(dir, Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		mustSnap(b, l, proj)
		b.StopTimer()
		b.ReportMetric(float64(diskUsage(b, dir))/files, "disk_bytes_per_tiny_file")
	}
}

// diskUsage is the bytes of the blocks the files and folders beneath dir take.
func diskUsage(b *testing.B, dir string) int64 {
	var n int64
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if st, ok := info.Sys().(*syscall.Stat_t); ok {
			n += st.Blocks * 512
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return n
}
