package acp

import (
	"encoding/json"
)

// Methods that change a session's mode, model or configuration.
const (
	MethodSetMode         = "session/set_mode"
	MethodSetConfigOption = "session/set_config_option"
	MethodSetModel        = "session/set_model" // legacy, still the only model switch of Gemini CLI
)

// Controls are what the agent lets the user pick for a session: config options first (the
// current protocol), else the legacy modes and models, and the slash commands it advertises.
// Every list is the agent's, in the agent's order. PromptCapabilities says what the agent
// accepts in a prompt besides text and file links (images, embedded files), for the composer.
type Controls struct {
	ConfigOptions      []ConfigOption      `json:"configOptions,omitempty"`
	Modes              *Modes              `json:"modes,omitempty"`
	Models             *Models             `json:"models,omitempty"`
	Commands           []SlashCommand      `json:"commands,omitempty"`
	PromptCapabilities *PromptCapabilities `json:"promptCapabilities,omitempty"`
	// AgentFeatures: what the agent offers beyond the session itself (set once it is open).
	AgentFeatures *AgentFeatures `json:"agentFeatures,omitempty"`
	// CanSteer: a prompt can be steered into the running turn (Session.Steer; the agent
	// advertises _session/steering or prompt queueing).
	CanSteer bool `json:"canSteer,omitempty"`
}

// AgentFeatures says which of the agent's own features the window may offer: its saved
// sessions (session/list, session/delete) and logging out (logout).
type AgentFeatures struct {
	ListSessions   bool `json:"listSessions,omitempty"`
	DeleteSessions bool `json:"deleteSessions,omitempty"`
	Logout         bool `json:"logout,omitempty"`
}

// ConfigOption is one session setting. CurrentValue and Options stay raw: values are strings or
// booleans, and options are a flat list or groups — the UI renders them as the agent sent them.
type ConfigOption struct {
	ID           string          `json:"id"`
	Name         string          `json:"name"`
	Description  string          `json:"description,omitempty"`
	Category     string          `json:"category,omitempty"`
	Type         string          `json:"type"`
	CurrentValue json.RawMessage `json:"currentValue,omitempty"`
	Options      json.RawMessage `json:"options,omitempty"`
}

// Modes is the legacy mode list.
type Modes struct {
	CurrentModeID  string `json:"currentModeId"`
	AvailableModes []Mode `json:"availableModes"`
}

// Mode is one legacy mode.
type Mode struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
}

// Models is the legacy model list.
type Models struct {
	CurrentModelID  string  `json:"currentModelId"`
	AvailableModels []Model `json:"availableModels"`
}

// Model is one legacy model.
type Model struct {
	ModelID     string `json:"modelId"`
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
}

// SlashCommand is a command the agent advertises; it is sent as prompt text "/name args".
type SlashCommand struct {
	Name        string        `json:"name"`
	Description string        `json:"description,omitempty"`
	Input       *CommandInput `json:"input,omitempty"`
}

// CommandInput hints at a command's argument.
type CommandInput struct {
	Hint string `json:"hint,omitempty"`
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
