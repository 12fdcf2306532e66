package acp

import (
	"encoding/json"
	"fmt"
	"strings"

	"agentdesk/backend/acp/schema"
)

// MCPServer is one MCP server a session passes to its agent in session/new, load and resume
// (Config.MCPServers). JSON is the ACP object itself, secret values filled in: it goes to the
// agent only (the journal's masker hides those values), never to the page. Transport says
// which variant it is, so the session can leave out what the agent does not accept.
type MCPServer struct {
	Name      string
	Transport string
	JSON      json.RawMessage
}

// MCPCapabilities is which MCP transports beyond stdio the agent accepts
// (agentCapabilities.mcpCapabilities); every agent must take stdio.
type MCPCapabilities struct {
	HTTP bool `json:"http,omitempty"`
	SSE  bool `json:"sse,omitempty"`
}

// accepts reports whether an agent with these capabilities takes a server of transport.
func (c MCPCapabilities) accepts(transport string) bool {
	switch transport {
	case schema.MCPStdio:
		return true
	case schema.MCPHTTP:
		return c.HTTP
	case schema.MCPSSE:
		return c.SSE
	}
	return false
}

// mcpServersLocked is the mcpServers array of an open call: the configured servers the agent
// accepts, never nil (v1 requires the array). The first time (per session) it leaves one out it
// says so in the transcript, as a notice, and in the log: a server the user asked for that
// silently never appears is worse than one that fails loudly.
func (s *Session) mcpServersLocked() []json.RawMessage {
	out := make([]json.RawMessage, 0, len(s.cfg.MCPServers))
	var skipped []string
	for _, m := range s.cfg.MCPServers {
		if s.caps.MCP.accepts(m.Transport) {
			out = append(out, m.JSON)
			continue
		}
		skipped = append(skipped, fmt.Sprintf("%s (%s)", m.Name, m.Transport))
	}
	if len(skipped) > 0 && !s.mcpSkipTold {
		s.mcpSkipTold = true
		list := strings.Join(skipped, ", ")
		s.cfg.Logf("session %s: %s does not accept these MCP servers' transports; not passed: %s", s.cfg.ID, s.cfg.AgentName, list)
		s.pushChange(s.tr.AddNotice(Notice{Severity: "warning", Title: "MCP servers not passed to " + s.cfg.AgentName,
			Description: fmt.Sprintf("%s does not accept their transport, so it was started without them: %s. "+
				"Use a stdio server, or an agent that supports the transport.", s.cfg.AgentName, list)}))
	}
	return out
}
