package store

import (
	"context"
	"fmt"
	"os"
	"time"
)

// The child processes of the store's tests that hold something (a lock) as another agentdesk
// would, until the test kills them: TestMain runs them (store_test.go).

const holderEnv = "STORE_TEST_HOLDER"

// holdWriteLock is a child process that acts as another agentdesk: it opens the store at path,
// holds SQLite's write lock, says "ready" and waits to be killed.
func holdWriteLock(path string) {
	ctx := context.Background()
	s, err := Open(ctx, path)
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	conn, err := s.db.Conn(ctx)
	if err == nil {
		_, err = conn.ExecContext(ctx, `BEGIN IMMEDIATE`)
	}
	holdAsChild(err)
}

// holdAsChild ends the work of a test's child process (startChild): it reports err and exits,
// or says "ready" and holds what it took (a lock, a lease, an open turn) until the test kills it.
func holdAsChild(err error) {
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	fmt.Println("ready")
	time.Sleep(time.Hour) // killed by the test (startChild)
	os.Exit(0)
}
