package acptest

import (
	"testing"
	"time"
)

// AwaitBound is how long Await waits: a bound only a hung test reaches, never a timing the test
// relies on.
const AwaitBound = 20 * time.Second

// Await returns the first value on feed (from now on) that matches, skipping the others; it fails
// t with "no <what>" when none has come within AwaitBound. The tests' event and journal recorders
// wait with it.
func Await[T any](t testing.TB, feed <-chan T, what string, match func(T) bool) T {
	t.Helper()
	timeout := time.After(AwaitBound)
	for {
		select {
		case v := <-feed:
			if match(v) {
				return v
			}
		case <-timeout:
			t.Fatalf("no %s within %s", what, AwaitBound)
		}
	}
}
