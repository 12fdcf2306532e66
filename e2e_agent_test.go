package main

import "testing"

// The e2e seam (e2e_agent_dev.go) is not in a build without the dev tag: the variable does nothing.
func TestE2EAgentScriptIsOnlyInTheDevBuild(t *testing.T) {
	t.Setenv("AGENTDESK_E2E_AGENT_SCRIPT", "/tmp/hostile.json")
	if got := e2eAgentScript(); got != "" {
		t.Fatalf("a build without the dev tag reads AGENTDESK_E2E_AGENT_SCRIPT: %q", got)
	}
}
