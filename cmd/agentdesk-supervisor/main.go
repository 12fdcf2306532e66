// Command agentdesk-supervisor is the supervisor agentdesk puts under every agent and every
// terminal's command (package backend/supervise/supervisor): a binary of its own, installed next
// to agentdesk's, so that it loads none of agentdesk's shared libraries and runs none of its
// packages' init (re-executing agentdesk cost each session 11.7 MiB of private memory).
package main

import (
	"os"

	"agentdesk/backend/supervise/supervisor"
)

func main() { os.Exit(supervisor.Main()) }
