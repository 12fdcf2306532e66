package hub

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
)

// revertLocks let one revert at a time touch a session's history and a folder's files, and no
// more: reverts of other sessions in other folders never wait on each other, so a revert that
// is slow (or stuck on a disk) holds up only what it works on. A wait ends with its context.
type revertLocks struct {
	mu   sync.Mutex
	held map[string]chan struct{} // key → closed when its holder lets go
}

// sessionKey and folder paths are the keys: a session's history, a folder's files.
func sessionKey(id string) string { return "session\x00" + id }

// lock takes keys (in sorted order, so two callers never wait on each other in a circle) and
// returns what lets them go. When ctx ends first, it holds none and says which it waited for.
// A caller holding a session's key takes folders' after it, never the other way round.
func (r *revertLocks) lock(ctx context.Context, keys ...string) (func(), error) {
	keys = slices.Compact(slices.Sorted(slices.Values(keys)))
	var got []string
	unlock := func() {
		r.mu.Lock()
		defer r.mu.Unlock()
		for _, k := range got {
			close(r.held[k])
			delete(r.held, k)
		}
	}
	for _, k := range keys {
		for {
			r.mu.Lock()
			if r.held == nil {
				r.held = map[string]chan struct{}{}
			}
			wait, busy := r.held[k]
			if !busy {
				r.held[k] = make(chan struct{})
			}
			r.mu.Unlock()
			if !busy {
				got = append(got, k)
				break
			}
			select {
			case <-wait:
			case <-ctx.Done():
				unlock()
				return nil, fmt.Errorf("another revert of %s is still running: try again when it has ended (%w)", lockName(k), ctx.Err())
			}
		}
	}
	return unlock, nil
}

// lockName words a key for a person.
func lockName(k string) string {
	if id, ok := strings.CutPrefix(k, sessionKey("")); ok {
		return "session " + id
	}
	return k
}
