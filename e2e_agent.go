//go:build !dev

package main

// e2eAgentScript is the end-to-end tests' seam, and it exists only in the dev-tag binary
// (e2e_agent_dev.go). A production build never plays a script in place of the Demo agent.
func e2eAgentScript() string { return "" }
