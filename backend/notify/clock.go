package notify

import "time"

// Clock is the time the Notifier's rate limit runs on; tests pass one they move by hand.
type Clock interface {
	Now() time.Time
	// AfterFunc calls f once, on its own goroutine, after d.
	AfterFunc(d time.Duration, f func())
}

// realClock is the wall clock.
type realClock struct{}

func (realClock) Now() time.Time                      { return time.Now() }
func (realClock) AfterFunc(d time.Duration, f func()) { time.AfterFunc(d, f) }
