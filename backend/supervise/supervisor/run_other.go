//go:build !linux

package supervisor

import "os"

// Main is Linux's (run_linux.go): here it refuses, saying so.
func Main() int {
	_, _ = os.Stderr.WriteString(Name + ": agentdesk supervises processes on Linux only\n")
	return 2
}
