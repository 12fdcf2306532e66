package acp

import (
	"encoding/json"
	"fmt"
)

// Update kinds (the sessionUpdate discriminator) of ACP v1.
const (
	UpdateUserMessageChunk  = "user_message_chunk"
	UpdateAgentMessageChunk = "agent_message_chunk"
	UpdateAgentThoughtChunk = "agent_thought_chunk"
	UpdateToolCall          = "tool_call"
	UpdateToolCallUpdate    = "tool_call_update"
	UpdatePlan              = "plan"
	UpdateAvailableCommands = "available_commands_update"
	UpdateCurrentMode       = "current_mode_update"
	UpdateConfigOptions     = "config_option_update"
	UpdateSessionInfo       = "session_info_update"
	UpdateUsage             = "usage_update"
)

// Update is one decoded session/update. Kind is the discriminator as sent; exactly one of the
// typed fields is set for a known kind. An unknown kind sets none of them and keeps only Raw:
// it is never decoded by field shape as some other kind.
type Update struct {
	Kind string
	Raw  json.RawMessage

	Chunk    *ChunkUpdate    // user_message_chunk, agent_message_chunk, agent_thought_chunk
	ToolCall *ToolCallFields // tool_call, tool_call_update
	Plan     []PlanEntry     // plan (always the whole plan)
	Usage    *Usage          // usage_update
}

// ChunkUpdate is a piece of a user, agent or thought message.
type ChunkUpdate struct {
	Content   ContentBlock `json:"content"`
	MessageID string       `json:"messageId,omitempty"`
}

// ToolCallFields is a tool call or a patch of one. Pointer and nil-slice fields distinguish
// "absent" (leave as is) from "present" (replace), as tool_call_update requires.
type ToolCallFields struct {
	ToolCallID string             `json:"toolCallId"`
	Title      *string            `json:"title,omitempty"`
	Kind       *string            `json:"kind,omitempty"`
	Status     *string            `json:"status,omitempty"`
	Content    *[]ToolCallContent `json:"content,omitempty"`
	Locations  *[]Location        `json:"locations,omitempty"`
	RawInput   json.RawMessage    `json:"rawInput,omitempty"`
	RawOutput  json.RawMessage    `json:"rawOutput,omitempty"`
}

// ToolCallContent is one item of a tool call's content: "content" (a block), "diff" or
// "terminal". Other types keep their raw JSON.
type ToolCallContent struct {
	Type       string        `json:"type"`
	Content    *ContentBlock `json:"content,omitempty"`
	Path       string        `json:"path,omitempty"`
	OldText    *string       `json:"oldText,omitempty"`
	NewText    string        `json:"newText,omitempty"`
	TerminalID string        `json:"terminalId,omitempty"`

	Raw json.RawMessage `json:"-"`
}

// UnmarshalJSON keeps the raw item beside the decoded fields.
func (c *ToolCallContent) UnmarshalJSON(data []byte) error {
	type plain ToolCallContent
	var p plain
	if err := json.Unmarshal(data, &p); err != nil {
		return err
	}
	*c = ToolCallContent(p)
	c.Raw = append(json.RawMessage(nil), data...)
	return nil
}

// Location is a file (and line, from 1) a tool call touches.
type Location struct {
	Path string `json:"path"`
	Line *int   `json:"line,omitempty"`
}

// PlanEntry is one step of the agent's plan.
type PlanEntry struct {
	Content  string `json:"content"`
	Priority string `json:"priority"`
	Status   string `json:"status"`
}

// Usage is the context-window meter of usage_update.
type Usage struct {
	Used int64 `json:"used"`
	Size int64 `json:"size"`
	Cost *Cost `json:"cost,omitempty"`
}

// Cost is money spent so far, as the agent reports it.
type Cost struct {
	Amount   float64 `json:"amount"`
	Currency string  `json:"currency"`
}

// DecodeUpdate reads the discriminator first and then only the fields of that kind. A known
// kind whose fields do not decode is an error (Kind and Raw are still set); an unknown kind is not.
func DecodeUpdate(raw json.RawMessage) (Update, error) {
	var head struct {
		Kind string `json:"sessionUpdate"`
	}
	if err := json.Unmarshal(raw, &head); err != nil {
		return Update{}, fmt.Errorf("decode session/update: %w", err)
	}
	u := Update{Kind: head.Kind, Raw: raw}
	var err error
	switch head.Kind {
	case UpdateUserMessageChunk, UpdateAgentMessageChunk, UpdateAgentThoughtChunk:
		u.Chunk = new(ChunkUpdate)
		err = json.Unmarshal(raw, u.Chunk)
	case UpdateToolCall, UpdateToolCallUpdate:
		u.ToolCall = new(ToolCallFields)
		err = json.Unmarshal(raw, u.ToolCall)
	case UpdatePlan:
		var p struct {
			Entries []PlanEntry `json:"entries"`
		}
		err = json.Unmarshal(raw, &p)
		u.Plan = p.Entries
		if u.Plan == nil {
			u.Plan = []PlanEntry{}
		}
	case UpdateUsage:
		u.Usage = new(Usage)
		err = json.Unmarshal(raw, u.Usage)
	}
	if err != nil {
		return Update{Kind: head.Kind, Raw: raw}, fmt.Errorf("decode %s update: %w", head.Kind, err)
	}
	return u, nil
}

// IsMetadata reports kinds that describe the session rather than add to its transcript
// (commands, mode, config options). They are journaled raw and kept for the pickers.
func (u Update) IsMetadata() bool {
	switch u.Kind {
	case UpdateAvailableCommands, UpdateCurrentMode, UpdateConfigOptions, UpdateSessionInfo:
		return true
	}
	return false
}
