package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"
)

// One session, one owner. A session is live in at most one agentdesk process at a time: the
// window, a `run` or a `chat` that makes it live claims it first (Claim) and holds the lease
// until the session leaves it. Two owners would each number their next turn after the same
// saved ones, and the second's rows would be refused or overwrite the first's. The lease is an
// flock on a file of its own beside the database ("<db>.owners/<hash of the id>"), which the
// kernel drops when its process dies, even by SIGKILL: a lease is never left behind by a dead
// owner, and a claim after one takes it over (settling the turns it left open). The file holds
// who owns the session, so a refused claim can say where the session is live.

// ErrOwned: Claim of a session that is live elsewhere. See *OwnedError.
var ErrOwned = errors.New("the session is live elsewhere")

// Owner says where a session is live: in which agentdesk process, as what, since when.
type Owner struct {
	Where string    // who holds it, for a person: "the agentdesk window", "agentdesk run"
	PID   int       // its process id
	Since time.Time // when it claimed the session
}

// OwnedError is a Claim refused because the session is live elsewhere; errors.Is finds ErrOwned.
// Owner is zero when the owner could not be read (it was claiming at that very moment).
type OwnedError struct {
	SessionID string
	Owner     Owner
	Here      bool // this very Store holds the lease: the session is live in this process already
}

var _ error = (*OwnedError)(nil)

// Error says where the session is live, as the owner described itself.
func (e *OwnedError) Error() string {
	if e.Owner.PID == 0 {
		return fmt.Sprintf("session %s is live in another agentdesk process", e.SessionID)
	}
	since := e.Owner.Since.Format("15:04:05")
	if y, m, d := e.Owner.Since.Date(); time.Now().Format(time.DateOnly) != e.Owner.Since.Format(time.DateOnly) {
		since = fmt.Sprintf("%d-%02d-%02d %s", y, m, d, since) // not today
	}
	return fmt.Sprintf("session %s is live in %s (pid %d) since %s", e.SessionID, e.Owner.Where, e.Owner.PID, since)
}

// Is reports ErrOwned.
func (e *OwnedError) Is(target error) bool { return target == ErrOwned }

// Lease is the claim of one session by this process (Claim). Release it once the session is
// no longer live here and its last writes are flushed.
type Lease struct {
	owners    *owners
	sessionID string
	owner     Owner
	lock      *ownerLock
	once      sync.Once
	err       error
}

// Owner is who holds the lease: this process.
func (l *Lease) Owner() Owner { return l.owner }

// Release gives the session up: another process may claim it from now on. Calling it again
// does nothing and returns the first result.
func (l *Lease) Release() error {
	l.once.Do(func() {
		l.owners.mu.Lock()
		delete(l.owners.held, l.sessionID)
		l.owners.mu.Unlock()
		if err := l.lock.release(); err != nil {
			l.err = fmt.Errorf("release session %s: %w", l.sessionID, err)
		}
	})
	return l.err
}

// owners are the leases a Store holds.
type owners struct {
	mu   sync.Mutex
	held map[string]*Lease
}

// releaseAll releases every lease still held (Close).
func (o *owners) releaseAll() error {
	o.mu.Lock()
	all := make([]*Lease, 0, len(o.held))
	for _, l := range o.held {
		all = append(all, l)
	}
	o.mu.Unlock()
	var errs []error
	for _, l := range all {
		errs = append(errs, l.Release())
	}
	return errors.Join(errs...)
}

// ownerRecord is an Owner as its lease file holds it.
type ownerRecord struct {
	SessionID string `json:"session"`
	Where     string `json:"where"`
	PID       int    `json:"pid"`
	Since     int64  `json:"since"` // unix ms
}

// Claim makes this process the owner of session id, described for a person as where (the
// agentdesk window, agentdesk run...): it fails with an *OwnedError naming the owner when the
// session is live in another process, or already claimed in this one. A lease its owner left
// behind by dying is taken over, and the turns that owner left open are settled as
// interrupted (as Open settles a crash), so the next turn follows them. Claim does not check
// that the session exists: a new session is claimed before its row is written.
func (s *Store) Claim(ctx context.Context, id, where string) (*Lease, error) {
	if s.w == nil {
		return nil, fmt.Errorf("claim session %s: %w", id, ErrReadOnly)
	}
	me := Owner{Where: where, PID: os.Getpid(), Since: s.now()}
	s.owners.mu.Lock()
	defer s.owners.mu.Unlock()
	if l, ok := s.owners.held[id]; ok {
		return nil, &OwnedError{SessionID: id, Owner: l.owner, Here: true}
	}
	rec, _ := json.Marshal(ownerRecord{SessionID: id, Where: where, PID: me.PID, Since: millis(me.Since)})
	lock, held, stale, err := lockOwner(s.path, id, rec)
	if err != nil {
		return nil, fmt.Errorf("claim session %s: %w", id, err)
	}
	if lock == nil {
		return nil, &OwnedError{SessionID: id, Owner: parseOwner(held)}
	}
	if stale {
		if err := markInterrupted(ctx, s.db, me.Since, id); err != nil {
			lock.release()
			return nil, fmt.Errorf("claim session %s from its dead owner: %w", id, err)
		}
	}
	l := &Lease{owners: &s.owners, sessionID: id, owner: me, lock: lock}
	if s.owners.held == nil {
		s.owners.held = map[string]*Lease{}
	}
	s.owners.held[id] = l
	return l, nil
}

// parseOwner reads a lease file's record; zero when it is empty or partly written.
func parseOwner(b []byte) Owner {
	var r ownerRecord
	if json.Unmarshal(b, &r) != nil || r.PID == 0 {
		return Owner{}
	}
	return Owner{Where: r.Where, PID: r.PID, Since: fromMillis(r.Since, true)}
}
