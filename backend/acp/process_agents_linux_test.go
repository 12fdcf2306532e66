//go:build linux

package acp_test

// processAgent acts as the agent (or the agentdesk) of kind for the tests that need Linux: its
// supervisor, pidfds, FIFOs (outlive_test.go, supervise_test.go, deaf_test.go).
func processAgent(kind string) {
	switch kind {
	case "deaf":
		deafProcess()
	case "family":
		familyAgent()
	case "app":
		appStartingFamily()
	case "setsidchild":
		setsidChildAgent()
	case "holder":
		holderAgent()
	case "daemonapp":
		appWithDaemons()
	}
}
