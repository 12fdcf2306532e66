package acp

import (
	"encoding/json"

	"agentdesk/backend/acp/schema"
)

// InitializeResult is the agent's answer; unknown fields are kept raw for later use.
type InitializeResult struct {
	ProtocolVersion   int                    `json:"protocolVersion"`
	AgentCapabilities AgentCapabilities      `json:"agentCapabilities"`
	AuthMethods       []json.RawMessage      `json:"authMethods,omitempty"`
	AgentInfo         *schema.Implementation `json:"agentInfo,omitempty"`
	// Meta: where claude-agent-acp, codex-acp and pi-acp advertise steering (session_steer.go).
	Meta json.RawMessage `json:"_meta,omitempty"`
}

// AgentCapabilities is what the agent says it supports.
type AgentCapabilities struct {
	LoadSession        bool                      `json:"loadSession,omitempty"`
	PromptCapabilities schema.PromptCapabilities `json:"promptCapabilities"`
	SessionCaps        json.RawMessage           `json:"sessionCapabilities,omitempty"`
	// Auth: {logout: {}} when the agent can log out (schema 1.21).
	Auth json.RawMessage `json:"auth,omitempty"`
	// MCP: the MCP transports beyond stdio the agent accepts in mcpServers.
	MCP MCPCapabilities `json:"mcpCapabilities"`
	// Meta: extensions; steering and Claude's promptQueueing are read from it (session_steer.go).
	Meta json.RawMessage `json:"_meta,omitempty"`

	steer steerMode // how prompts are steered into a running turn, from both _meta (session_steer.go)
}
