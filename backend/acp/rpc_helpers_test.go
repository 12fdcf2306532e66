package acp_test

import (
	"encoding/json"
	"time"

	"agentdesk/backend/acp/jsonrpc"
)

// quiet is embedded by the test agents that ignore every notification.
type quiet struct{}

// HandleNotification ignores it.
func (quiet) HandleNotification(string, json.RawMessage) {}

// replyInitialize answers initialize as an agent of protocol version 1 with no capabilities.
func replyInitialize(req *jsonrpc.Request) {
	req.Reply(map[string]any{"protocolVersion": 1, "agentCapabilities": map[string]any{}}, nil)
}

// hangGuard is how long a test waits for what must happen at once; only a hung test reaches it.
const hangGuard = 20 * time.Second
