package interop

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"agentdesk/backend/registry"
)

// TestMain installs the pinned agents into the cache first when AGENTDESK_INTEROP=1 (make
// interop), saying how long each took; otherwise the tests of an agent not in the cache skip.
func TestMain(m *testing.M) {
	if required() {
		for _, e := range []registry.Entry{Pinned.Claude, Pinned.Codex} {
			began := time.Now()
			in, err := Install(context.Background(), e)
			if err != nil {
				fmt.Fprintf(os.Stderr, "interop: could not install %s: %v\n", e.Name, err)
				os.Exit(1)
			}
			fmt.Printf("interop: %s %s ready in %s (%s)\n", e.Name, in.Version, time.Since(began).Round(time.Millisecond), in.Dir)
		}
	}
	os.Exit(m.Run())
}
