package acp

import (
	"agentdesk/backend/acp/schema"
)

// Controls are what the agent lets the user pick for a session: config options first (the
// current protocol), else the legacy modes and models, and the slash commands it advertises.
// Every list is the agent's, in the agent's order. PromptCapabilities says what the agent
// accepts in a prompt besides text and file links (images, embedded files), for the composer.
type Controls struct {
	ConfigOptions      []schema.ConfigOption      `json:"configOptions,omitempty"`
	Modes              *schema.Modes              `json:"modes,omitempty"`
	Models             *schema.Models             `json:"models,omitempty"`
	Commands           []schema.SlashCommand      `json:"commands,omitempty"`
	PromptCapabilities *schema.PromptCapabilities `json:"promptCapabilities,omitempty"`
	// AgentFeatures: what the agent offers beyond the session itself (set once it is open).
	AgentFeatures *AgentFeatures `json:"agentFeatures,omitempty"`
	// CanSteer: a prompt can be steered into the running turn (Session.Steer; the agent
	// advertises _session/steering or prompt queueing).
	CanSteer bool `json:"canSteer,omitempty"`
	// Suggestions are the agent's predicted next prompts, oldest first (at most MaxSuggestions,
	// each one plain line), shown as chips under the composer; cleared when a turn starts
	// (session_suggestions.go).
	Suggestions []string `json:"suggestions,omitempty"`
}

// AgentFeatures says which of the agent's own features the window may offer: its saved
// sessions (session/list, session/delete, session/archive), logging out (logout) and taking the person's house
// rules as a system prompt (sessionCapabilities.systemPrompt).
type AgentFeatures struct {
	ListSessions    bool `json:"listSessions,omitempty"`
	DeleteSessions  bool `json:"deleteSessions,omitempty"`
	ArchiveSessions bool `json:"archiveSessions,omitempty"`
	Logout          bool `json:"logout,omitempty"`
	SystemPrompt    bool `json:"systemPrompt,omitempty"`
}

// changed returns a changed copy of *p (nil when p is nil). Modes and Models are replaced this
// way, never written in place: events and snapshots already handed out share the old value.
func changed[T any](p *T, change func(*T)) *T {
	if p == nil {
		return nil
	}
	c := *p
	change(&c)
	return &c
}
