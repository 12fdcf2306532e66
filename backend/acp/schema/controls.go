package schema

import (
	"encoding/json"
)

// Methods that change a session's mode, model or configuration.
const (
	MethodSetMode         = "session/set_mode"
	MethodSetConfigOption = "session/set_config_option"
	MethodSetModel        = "session/set_model" // legacy, still the only model switch of Gemini CLI
)

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
