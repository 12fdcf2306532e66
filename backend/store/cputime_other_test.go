//go:build !unix

package store

import (
	"testing"
	"time"
)

// cpuTime is 0 where getrusage is missing: cpu-ns/chunk then reads 0.
func cpuTime(*testing.B) time.Duration { return 0 }
