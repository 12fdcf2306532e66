package schema

import (
	"encoding/json"

	"agentdesk/backend/acp/jsonrpc"
)

// ProtocolVersion is the ACP major version this client speaks.
const ProtocolVersion = 1

// Method names of ACP v1 that this package sends or handles.
const (
	MethodInitialize        = "initialize"
	MethodSessionNew        = "session/new"
	MethodSessionPrompt     = "session/prompt"
	MethodSessionCancel     = "session/cancel"
	MethodSessionUpdate     = "session/update"
	MethodRequestPermission = "session/request_permission"
	MethodCancelRequest     = jsonrpc.MethodCancelRequest // cancels one request, never a turn
)

// Error codes of ACP: JSON-RPC's own and those ACP adds. The set is open: agents send others
// (Gemini CLI sends 500), which a *jsonrpc.Error carries unchanged.
const (
	CodeParseError       = jsonrpc.CodeParseError
	CodeInvalidRequest   = jsonrpc.CodeInvalidRequest
	CodeMethodNotFound   = jsonrpc.CodeMethodNotFound
	CodeInvalidParams    = jsonrpc.CodeInvalidParams
	CodeInternalError    = jsonrpc.CodeInternalError
	CodeRequestCancelled = -32800 // a request the peer cancelled ($/cancel_request)
	CodeAuthRequired     = -32000 // the agent needs a login first (see AuthRequiredError)
	CodeResourceNotFound = -32002 // fs/read_text_file: no such file
)

// Stop reasons of a turn. The first five come from agents; the last two are ours.
const (
	StopEndTurn         = "end_turn"
	StopMaxTokens       = "max_tokens"
	StopMaxTurnRequests = "max_turn_requests"
	StopRefusal         = "refusal"
	StopCancelled       = "cancelled"
	StopError           = "error"       // the prompt call failed; the message says why
	StopInterrupted     = "interrupted" // the agent was killed (hard stop, crash) mid-turn
)

// Permission option kinds.
const (
	AllowOnce    = "allow_once"
	AllowAlways  = "allow_always"
	RejectOnce   = "reject_once"
	RejectAlways = "reject_always"
)

// Implementation names a peer in initialize.
type Implementation struct {
	Name    string `json:"name"`
	Title   string `json:"title,omitempty"`
	Version string `json:"version"`
}

// ClientCapabilities are advertised in initialize. Only what is implemented is set: an absent
// or false capability means unsupported.
type ClientCapabilities struct {
	FS       FSCapabilities     `json:"fs"`
	Terminal bool               `json:"terminal"`
	Auth     *AuthCapabilities  `json:"auth,omitempty"`
	Session  *SessionClientCaps `json:"session,omitempty"`
	// Elicitation: the elicitation/create modes the client renders (elicitation.go).
	Elicitation *ElicitationCaps `json:"elicitation,omitempty"`
	// Subagents: the client shows the child sessions an agent exposes (subagent_update).
	Subagents *struct{} `json:"subagents,omitempty"`
}

// SessionClientCaps says which session features the client renders. Agents offer boolean
// config options only to clients that say they render them (the UI shows them as switches).
type SessionClientCaps struct {
	ConfigOptions *ConfigOptionCaps `json:"configOptions,omitempty"`
	// Compaction: the client shows compaction_update and compaction_summary_chunk.
	Compaction *struct{} `json:"compaction,omitempty"`
}

// ConfigOptionCaps lists the config option types the client renders besides select; an
// empty object means supported.
type ConfigOptionCaps struct {
	Boolean *struct{} `json:"boolean,omitempty"`
}

// AuthCapabilities says which kinds of login the client can carry out besides authenticate.
type AuthCapabilities struct {
	// Terminal: the client can run a terminal method's command for the user (the app shows it
	// and opens a terminal window; the CLI prints it), so agents may offer such methods.
	Terminal bool `json:"terminal"`
}

// FSCapabilities says which fs/* requests the client serves.
type FSCapabilities struct {
	ReadTextFile  bool `json:"readTextFile"`
	WriteTextFile bool `json:"writeTextFile"`
}

// InitializeParams is sent first on every connection.
type InitializeParams struct {
	ProtocolVersion    int                `json:"protocolVersion"`
	ClientCapabilities ClientCapabilities `json:"clientCapabilities"`
	ClientInfo         Implementation     `json:"clientInfo"`
}

// PromptCapabilities says which content blocks a prompt may carry beyond text and links.
type PromptCapabilities struct {
	Image           bool `json:"image,omitempty"`
	Audio           bool `json:"audio,omitempty"`
	EmbeddedContext bool `json:"embeddedContext,omitempty"`
}

// MCP server transports, as ACP's mcpServers variants name them (stdio has no "type").
const (
	MCPStdio = "stdio"
	MCPHTTP  = "http"
	MCPSSE   = "sse"
)

// NewSessionParams opens a session. MCPServers must be an array (never omitted) in v1.
type NewSessionParams struct {
	Cwd        string            `json:"cwd"`
	MCPServers []json.RawMessage `json:"mcpServers"`
	// AdditionalDirectories: the session's other folders, absolute (schema 1.21), sent only to an
	// agent that advertises sessionCapabilities.additionalDirectories.
	AdditionalDirectories []string `json:"additionalDirectories,omitempty"`
}

// NewSessionResult carries the agent's session id and what the user may pick for the session.
type NewSessionResult struct {
	SessionID     string         `json:"sessionId"`
	Modes         *Modes         `json:"modes,omitempty"`
	Models        *Models        `json:"models,omitempty"`
	ConfigOptions []ConfigOption `json:"configOptions,omitempty"`
}

// PromptParams sends one user turn.
type PromptParams struct {
	SessionID string         `json:"sessionId"`
	Prompt    []ContentBlock `json:"prompt"`
}

// PromptResult ends a turn.
type PromptResult struct {
	StopReason string          `json:"stopReason"`
	Usage      json.RawMessage `json:"usage,omitempty"`
}

// CancelParams is the session/cancel notification.
type CancelParams struct {
	SessionID string `json:"sessionId"`
}

// SessionNotification is the session/update notification.
type SessionNotification struct {
	SessionID string          `json:"sessionId"`
	Update    json.RawMessage `json:"update"`
}

// PermissionOption is one choice the agent offers, in the agent's order.
type PermissionOption struct {
	OptionID string `json:"optionId"`
	Name     string `json:"name"`
	Kind     string `json:"kind"`
}

// RequestPermissionParams is session/request_permission. ToolCall may name a tool call that was
// never announced; it is upserted from here.
type RequestPermissionParams struct {
	SessionID string             `json:"sessionId"`
	ToolCall  ToolCallFields     `json:"toolCall"`
	Options   []PermissionOption `json:"options"`
}

// PermissionOutcome is the answer's outcome: "selected" with an option id, or "cancelled".
type PermissionOutcome struct {
	Outcome  string `json:"outcome"`
	OptionID string `json:"optionId,omitempty"`
}

// RequestPermissionResult answers session/request_permission.
type RequestPermissionResult struct {
	Outcome PermissionOutcome `json:"outcome"`
}
