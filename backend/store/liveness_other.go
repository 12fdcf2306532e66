//go:build !unix

package store

// liveness is a no-op where flock is unavailable: every Open assumes it is alone and marks
// open turns interrupted, as if the previous process had crashed.
type liveness struct{}

func acquireLiveness(string) (*liveness, bool, error) { return &liveness{}, true, nil }

func (*liveness) shared() error  { return nil }
func (*liveness) release() error { return nil }

// heldByOthers cannot tell without flock: it says another Store may hold the database, so a
// read-only store shows outcomes as stored.
func heldByOthers(string) bool { return true }
