//go:build linux

package fsys_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"golang.org/x/sys/unix"

	"agentdesk/backend/acp/acptest"
	"agentdesk/backend/acp/fsys"
	"agentdesk/backend/acp/schema"
)

// TestFolderSymlinkSwapsNeverLeadOut: while a goroutine keeps swapping, atomically, names inside
// the folder between what they should be and links out of it, 2,000 reads and 2,000 writes go
// through the Folder: none returns the content of a file outside, none changes the folder outside.
// The swaps: a folder with a link to a folder outside (absolute), a file with a link to a file
// outside (relative, through ".."), and a link to a file inside with a link to a file outside.
func TestFolderSymlinkSwapsNeverLeadOut(t *testing.T) { swapRace(t) }

// TestFolderSymlinkSwapsNeverLeadOutWithoutOpenat2: the same where the kernel has no openat2, so
// every open walks name by name.
func TestFolderSymlinkSwapsNeverLeadOutWithoutOpenat2(t *testing.T) { walking(t, swapRace) }

func swapRace(t *testing.T) {
	root := t.TempDir()
	dir, outside := filepath.Join(root, "project"), filepath.Join(root, "outside")
	for _, d := range []string{filepath.Join(dir, "sub"), filepath.Join(dir, "real"), outside} {
		must(t, os.MkdirAll(d, 0o755))
	}
	const secret = "OUTSIDE SECRET"
	must(t, os.WriteFile(filepath.Join(outside, "file.txt"), []byte(secret), 0o644))
	for _, p := range []string{"sub/file.txt", "real/file.txt", "f.txt"} {
		must(t, os.WriteFile(filepath.Join(dir, p), []byte("inside"), 0o644))
	}
	in := func(p string) string { return filepath.Join(dir, p) }
	must(t, os.Symlink(outside, in("swap-a")))
	must(t, os.Symlink("../outside/file.txt", in("swap-b")))
	must(t, os.Symlink("real/file.txt", in("ln")))
	must(t, os.Symlink(filepath.Join(outside, "file.txt"), in("swap-c")))
	pairs := [][2]string{{in("sub"), in("swap-a")}, {in("f.txt"), in("swap-b")}, {in("ln"), in("swap-c")}}

	f, err := fsys.NewFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	stop, swapped := make(chan struct{}), make(chan error, 1)
	go func() {
		for i := 0; ; i++ {
			select {
			case <-stop:
				swapped <- nil
				return
			default:
			}
			p := pairs[i%len(pairs)]
			if err := unix.Renameat2(unix.AT_FDCWD, p[0], unix.AT_FDCWD, p[1], unix.RENAME_EXCHANGE); err != nil {
				swapped <- fmt.Errorf("swap %s and %s: %w", p[0], p[1], err)
				return
			}
		}
	}()
	paths := []string{in("sub/file.txt"), in("f.txt"), in("ln")}
	writes := []string{in("sub/new.txt"), in("sub/deeper/new.txt"), in("f.txt"), in("ln")}
	var wg sync.WaitGroup
	var outReads, outWrites int
	wg.Add(2)
	go func() {
		defer wg.Done()
		for i := range 2000 {
			res, err := f.ReadTextFile(acptest.Params(t, schema.ReadTextFileParams{Path: paths[i%len(paths)]}))
			if err == nil && strings.Contains(res.(map[string]string)["content"], secret) {
				outReads++
			}
		}
	}()
	go func() {
		defer wg.Done()
		for i := range 2000 {
			_, _ = f.WriteTextFile(acptest.Params(t, schema.WriteTextFileParams{Path: writes[i%len(writes)], Content: "written"}))
		}
	}()
	wg.Wait()
	close(stop)
	if err := <-swapped; err != nil {
		t.Fatal(err)
	}
	err = filepath.Walk(outside, func(p string, info os.FileInfo, err error) error {
		if err == nil && p != outside && p != filepath.Join(outside, "file.txt") {
			outWrites++
		}
		return err
	})
	if data, rerr := os.ReadFile(filepath.Join(outside, "file.txt")); err != nil || rerr != nil || string(data) != secret {
		outWrites++
	}
	if outReads != 0 || outWrites != 0 {
		t.Fatalf("%d reads returned the file outside, %d writes changed the folder outside", outReads, outWrites)
	}
}
