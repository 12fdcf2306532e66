//go:build !unix

package changes

import (
	"context"
	"errors"
)

// The ledger reads and reverts folders through descriptors (openat, fstatat, renameat), which
// only unix systems have; elsewhere it builds, and snapshots and reverts fail saying so.

// errUnsupported: this OS has no change ledger in agentdesk yet.
var errUnsupported = errors.New("recording and reverting changes is not supported on this OS yet: agentdesk's change ledger needs a unix system")

// Snapshot is unix's (snapshot.go): here it fails, saying so.
func (l *Ledger) Snapshot(ctx context.Context, root string) (Snap, error) {
	return Snap{Root: root}, errUnsupported
}

// Plan is unix's (revert.go): here it fails, saying so.
func (l *Ledger) Plan(targets []Target) ([]PlannedFile, error) { return nil, errUnsupported }

// Apply is unix's (revert.go): here it fails, saying so.
func (l *Ledger) Apply(targets []Target) (done []string, err error) { return nil, errUnsupported }
