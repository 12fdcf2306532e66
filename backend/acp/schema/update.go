package schema

import (
	"encoding/json"
	"fmt"

	"agentdesk/backend/acp/jsonrpc"
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
// it is never decoded by field shape as some other kind. Raw is the update object (see
// DecodeNotification for when it is set).
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
	ToolCallID string  `json:"toolCallId"`
	Title      *string `json:"title,omitempty"`
	// Name is the tool's own name (schema 1.35: "Bash", "read_file"), a string or null; raw, so
	// that a value of another type is ignored (acp's UpsertTool) rather than failing the update.
	Name      json.RawMessage    `json:"name,omitempty"`
	Kind      *string            `json:"kind,omitempty"`
	Status    *string            `json:"status,omitempty"`
	Content   *[]ToolCallContent `json:"content,omitempty"`
	Locations *[]Location        `json:"locations,omitempty"`
	RawInput  json.RawMessage    `json:"rawInput,omitempty"`
	RawOutput json.RawMessage    `json:"rawOutput,omitempty"`
	// Meta stays raw until the transcript reads a terminal from it (decodeToolMeta): an
	// unexpected shape is ignored there, never an error of the update or the permission request.
	Meta json.RawMessage `json:"_meta,omitempty"`
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

var _ json.Unmarshaler = (*ToolCallContent)(nil)

// UnmarshalJSON keeps the raw item beside the decoded fields (a copy: a json.Decoder reuses
// its buffer).
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

// wireUpdate is every field a known update kind may carry, so one pass over the JSON reads the
// discriminator and the fields together (the hot path: thousands of chunks a second). Content
// differs in shape between kinds (a block for chunks, a list for tool calls), so it stays raw
// until the kind is known. Only the fields of the update's own kind are used.
type wireUpdate struct {
	Kind      string          `json:"sessionUpdate"`
	Content   jsonrpc.RawView `json:"content"` // shares params' memory: see DecodeNotification
	MessageID string          `json:"messageId"`

	ToolCallID string          `json:"toolCallId"`
	Title      *string         `json:"title"`
	Name       json.RawMessage `json:"name"`
	ToolKind   *string         `json:"kind"`
	Status     *string         `json:"status"`
	Locations  *[]Location     `json:"locations"`
	RawInput   json.RawMessage `json:"rawInput"`
	RawOutput  json.RawMessage `json:"rawOutput"`
	Meta       json.RawMessage `json:"_meta"` // tool calls: a terminal the agent runs itself

	Entries []PlanEntry `json:"entries"`

	Used int64 `json:"used"`
	Size int64 `json:"size"`
	Cost *Cost `json:"cost"`
}

// DecodeUpdate decodes a session/update's update object. The discriminator decides which fields
// mean anything: a known kind is never inferred from field shapes, and an unknown kind keeps
// only Kind and Raw. A known kind whose fields do not decode is an error (Kind and Raw are still
// set). Raw is raw, always.
func DecodeUpdate(raw json.RawMessage) (Update, error) {
	var w wireUpdate
	if err := json.Unmarshal(raw, &w); err != nil {
		var head struct {
			Kind string `json:"sessionUpdate"`
		}
		if json.Unmarshal(raw, &head) == nil && !decodedKind(head.Kind) {
			// The fields of a kind we do not decode mean nothing to us, whatever their shape.
			return Update{Kind: head.Kind, Raw: raw}, nil
		}
		return Update{Kind: head.Kind, Raw: raw}, fmt.Errorf("decode %s update: %w", head.Kind, err)
	}
	u, err := fromWire(&w)
	u.Raw = raw
	return u, err
}

// DecodeNotification decodes session/update params in one pass: the hot path, thousands of
// chunks a second. The update's Raw is set when something shows or keeps it raw (an unknown or
// metadata kind, content that is not text, a decoding error), and then only. Raw values of the
// update may share params' memory: the caller must not change params afterwards.
func DecodeNotification(params json.RawMessage) (sessionID string, u Update, err error) {
	var n struct {
		SessionID string     `json:"sessionId"`
		Update    wireUpdate `json:"update"`
	}
	if jsonrpc.Unmarshal(params, &n) != nil {
		var plain SessionNotification
		if err := json.Unmarshal(params, &plain); err != nil {
			return "", Update{}, fmt.Errorf("decode session/update: %w", err)
		}
		u, err = DecodeUpdate(plain.Update)
		return plain.SessionID, u, err
	}
	u, err = fromWire(&n.Update)
	if err != nil || u.needsRaw() {
		var plain SessionNotification
		_ = json.Unmarshal(params, &plain)
		u.Raw = plain.Update
	}
	return n.SessionID, u, err
}

// needsRaw reports updates that are kept or shown as raw JSON.
func (u Update) needsRaw() bool {
	if u.Chunk != nil {
		_, isText := BlockText(u.Chunk.Content)
		return !isText
	}
	return u.ToolCall == nil && u.Plan == nil && u.Usage == nil
}

// fromWire keeps the fields of w's kind. On error, only Kind is set.
func fromWire(w *wireUpdate) (Update, error) {
	u := Update{Kind: w.Kind}
	var err error
	switch w.Kind {
	case UpdateUserMessageChunk, UpdateAgentMessageChunk, UpdateAgentThoughtChunk:
		u.Chunk = &ChunkUpdate{MessageID: w.MessageID}
		if len(w.Content) == 0 {
			err = fmt.Errorf("no content")
		} else {
			// Decoded as the plain struct: one pass, and the raw block is w.Content itself. The
			// text, which may be huge, is decoded with one copy (jsonrpc.Text).
			type plain ContentBlock
			var b struct {
				plain
				Text jsonrpc.Text `json:"text"`
			}
			err = jsonrpc.Unmarshal(w.Content, &b)
			u.Chunk.Content = ContentBlock(b.plain)
			u.Chunk.Content.Text = string(b.Text)
			u.Chunk.Content.Raw = json.RawMessage(w.Content)
		}
	case UpdateToolCall, UpdateToolCallUpdate:
		u.ToolCall = &ToolCallFields{ToolCallID: w.ToolCallID, Title: w.Title, Name: w.Name, Kind: w.ToolKind, Status: w.Status,
			Locations: w.Locations, RawInput: w.RawInput, RawOutput: w.RawOutput, Meta: w.Meta}
		if len(w.Content) > 0 && string(w.Content) != "null" {
			var items []ToolCallContent
			err = json.Unmarshal(w.Content, &items)
			u.ToolCall.Content = &items
		}
	case UpdatePlan:
		u.Plan = w.Entries
		if u.Plan == nil {
			u.Plan = []PlanEntry{}
		}
	case UpdateUsage:
		u.Usage = &Usage{Used: w.Used, Size: w.Size, Cost: w.Cost}
	}
	if err != nil {
		return Update{Kind: w.Kind}, fmt.Errorf("decode %s update: %w", w.Kind, err)
	}
	return u, nil
}

// decodedKind reports the kinds whose fields DecodeUpdate reads from the wire struct; for
// any other kind a field of an unexpected shape is not an error.
func decodedKind(kind string) bool {
	switch kind {
	case UpdateUserMessageChunk, UpdateAgentMessageChunk, UpdateAgentThoughtChunk, UpdateToolCall,
		UpdateToolCallUpdate, UpdatePlan, UpdateUsage:
		return true
	}
	return false
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
