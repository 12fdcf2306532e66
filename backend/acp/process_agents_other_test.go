//go:build !linux

package acp_test

// processAgent is Linux's (process_agents_linux_test.go): the tests that start these agents are
// too.
func processAgent(kind string) {}
