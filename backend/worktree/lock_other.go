//go:build !unix

package worktree

import "sync"

// noFollow is nothing where the system has no O_NOFOLLOW; os.Root still keeps every path in.
const noFollow = 0

var applyLock sync.Mutex

// lockRepo serialises this process's Applies where there is no flock.
func (m *Manager) lockRepo(string) (func(), error) {
	applyLock.Lock()
	return applyLock.Unlock, nil
}
