package hub

import (
	"fmt"

	"agentdesk/backend/acp"
	"agentdesk/backend/agents"
)

// MCPSource is an AgentSource that also has MCP servers for the sessions it starts (the
// catalog). A source without them starts every session with none.
type MCPSource interface {
	// MCPFor returns the servers a session of agentID gets: with names nil those configured for
	// it, else exactly those named. It fails for an unknown name or a secret it cannot read.
	MCPFor(agentID string, names []string) ([]agents.MCPWire, error)
}

var _ MCPSource = (*agents.Catalog)(nil)

// mcpFor resolves the MCP servers of a session of agentID (names as MCPSource.MCPFor takes
// them), before anything of the session is created: a secret that cannot be read fails the
// start rather than starting the agent without a server the user asked for.
func (h *Hub) mcpFor(agentID string, names []string) ([]acp.MCPServer, error) {
	src, ok := h.agents.(MCPSource)
	if !ok {
		if len(names) > 0 {
			return nil, fmt.Errorf("no MCP servers are configured here")
		}
		return nil, nil
	}
	wires, err := src.MCPFor(agentID, names)
	if err != nil {
		return nil, err
	}
	out := make([]acp.MCPServer, len(wires))
	for i, w := range wires {
		out[i] = acp.MCPServer{Name: w.Name, Transport: w.Transport, JSON: w.JSON}
	}
	return out, nil
}
