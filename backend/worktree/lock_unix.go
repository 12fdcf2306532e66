//go:build unix

package worktree

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// noFollow opens a file without following a link in its last element, and without blocking
// on a FIFO.
const noFollow = syscall.O_NOFOLLOW | syscall.O_NONBLOCK

// lockRepo takes the lock of repository repo's Apply (an flock on a file in the Manager's
// folder, so that the window and the command line take turns too) and returns its release. It
// blocks while another Apply of repo runs.
func (m *Manager) lockRepo(repo string) (func(), error) {
	path := filepath.Join(m.root, ".apply", repoKey(repo)+".lock")
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("lock the apply: %w", err)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("lock the apply: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, fmt.Errorf("lock the apply: %w", err)
	}
	return func() { f.Close() }, nil
}
