// Package proctest is what the tests of process lifetimes share (supervise's, the engine's, the
// login environment's): on Linux a hold on a process by a pidfd, which keeps naming the same process even
// after its pid is reused, and a wait for its end that sleeps on the pidfd instead of polling
// the clock (hold_linux.go); everywhere, test binaries whose children exit fast under -race, and
// the agentdesk-supervisor binary built for the tests that supervise (supervisor.go).
//
// Guarantees: Hold never names another process than the one it was taken on; Ended reports an
// end only when the kernel says the process has ended (a zombie has), and a bound d only when
// the process is still running then.
package proctest

import "os"

// NoExitSleep spares the processes a test binary starts from now on (itself re-executed as an
// agent, a supervisor, agentdesk) the second a Go program built with -race sleeps before it
// exits (GORACE atexit_sleep_ms), which the tests would otherwise wait for at every exit. Races
// are still reported; the test binary's own exit is as before. Call it from TestMain.
func NoExitSleep() {
	os.Setenv("GORACE", os.Getenv("GORACE")+" atexit_sleep_ms=0")
}
