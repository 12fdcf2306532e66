//go:build dev

package main

import "os"

// e2eAgentScript is the end-to-end tests' seam into the agent the UI starts, compiled only into
// the dev-tag binary (build/bin/agentdesk-dev, which e2e drives; never into a production build,
// see e2e_agent.go). With AGENTDESK_E2E_AGENT_SCRIPT=FILE in the app's environment, which the app
// passes on to the agents it starts, the Demo agent plays that acptest script instead of its demo,
// as `demo-agent --script FILE` would: e2e/run.mjs uses it to drive a hostile agent and one that
// ignores Stop through the real UI.
func e2eAgentScript() string { return os.Getenv("AGENTDESK_E2E_AGENT_SCRIPT") }
