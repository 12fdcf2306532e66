package acp

import (
	"encoding/json"
	"strings"
	"unicode/utf8"

	"agentdesk/backend/acp/attach"
	"agentdesk/backend/acp/schema"
	"agentdesk/backend/acp/terminal"
)

// EntryKind is what a transcript entry shows.
type EntryKind string

// Entry kinds, as the UI renders them.
const (
	KindUser    EntryKind = "user"
	KindAgent   EntryKind = "agent"
	KindThought EntryKind = "thought"
	KindTool    EntryKind = "tool"
	KindPlan    EntryKind = "plan"
	KindUsage   EntryKind = "usage"
	KindUnknown EntryKind = "unknown"
	KindError   EntryKind = "error"
	// KindBoundary marks where a continued session picks up (see Boundary): it has no search
	// text and renders as one line.
	KindBoundary EntryKind = "boundary"
)

// Tool call statuses. The first four are the agent's; cancelled and incomplete are ours (ACP
// has neither): a call still open when the user stopped the turn, or when the turn ended
// without the agent closing it (Gemini CLI never closes a call the user rejected).
const (
	StatusPending    = "pending"
	StatusInProgress = "in_progress"
	StatusCompleted  = "completed"
	StatusFailed     = "failed"
	StatusCancelled  = "cancelled"
	StatusIncomplete = "incomplete"
)

// Entry is one item of a transcript as the UI shows it and the store keeps it. Its JSON shape is
// the contract with the frontend (frontend/src/lib/protocol.ts) and is pinned by the golden
// files in testdata/events. Which fields are set depends on Kind.
type Entry struct {
	ID   string    `json:"id"`
	Kind EntryKind `json:"kind"`
	Turn int       `json:"turn"`

	// user: the prompt (plain text); agent, thought: Markdown; error: the message.
	Text      string `json:"text,omitempty"`
	MessageID string `json:"messageId,omitempty"`
	// user: what was attached to the prompt, as it was sent.
	Attachments []attach.Info `json:"attachments,omitempty"`
	// user: the prompt was steered into the running turn (session_steer.go), not a turn of its own.
	Steered bool `json:"steered,omitempty"`

	// tool
	ToolCallID string            `json:"toolCallId,omitempty"`
	ToolKind   string            `json:"toolKind,omitempty"`
	Title      string            `json:"title,omitempty"`
	Status     string            `json:"status,omitempty"`
	Locations  []schema.Location `json:"locations,omitempty"`
	Content    []ToolContent     `json:"content,omitempty"`
	RawInput   json.RawMessage   `json:"rawInput,omitempty"`
	RawOutput  json.RawMessage   `json:"rawOutput,omitempty"`

	Plan  []schema.PlanEntry `json:"plan,omitempty"`
	Usage *schema.Usage      `json:"usage,omitempty"`

	// unknown: the update kind (or "<update>/<content type>") and the raw JSON.
	UpdateKind string          `json:"updateKind,omitempty"`
	Raw        json.RawMessage `json:"raw,omitempty"`

	// error: the agent's error data and the tail of its stderr.
	Data   json.RawMessage `json:"data,omitempty"`
	Stderr string          `json:"stderr,omitempty"`

	// boundary: how the session was continued.
	Boundary *Boundary `json:"boundary,omitempty"`

	// notice, compaction: banners and dividers (transcript_notices.go).
	Notice     *Notice     `json:"notice,omitempty"`
	Compaction *Compaction `json:"compaction,omitempty"`

	// subagent: a child session the agent started (session_subagents.go).
	Subagent *Subagent `json:"subagent,omitempty"`

	// elicitation: the agent's question and how it was answered (transcript_elicitation.go).
	Elicitation *Elicitation `json:"elicitation,omitempty"`
}

// Boundary kinds: how a continued session's agent came to know the earlier turns.
const (
	BoundaryResumed    = "resumed"    // session/resume: the agent restored its own context
	BoundaryReplayed   = "replayed"   // session/load: the agent replayed it (matched against ours, never shown twice)
	BoundarySummarised = "summarised" // session/new: the agent is given Summary with the next prompt
)

// Boundary is the entry a continued session shows where it picks up (KindBoundary).
type Boundary struct {
	Kind string `json:"kind"` // Boundary*
	// Summary: summarised: the text the agent is given with the next prompt (Summarize);
	// replayed: why nothing of the replay was added, when it did not match the saved prompts.
	Summary string `json:"summary,omitempty"`
	// Replayed: replayed: how many session/update messages the agent replayed.
	Replayed int `json:"replayed,omitempty"`
	// Added: replayed: how many entries of turns the agent had beyond ours were appended
	// after the boundary.
	Added int `json:"added,omitempty"`
	// forked (fork.go): Link is the link kind (Link*), FromID our id of the parent, From its
	// title, FromAgent its agent, Turn the parent's turn it branched at; Forked says the agent
	// forked its own session (session/fork) rather than being given Summary.
	Link      string `json:"link,omitempty"`
	FromID    string `json:"fromId,omitempty"`
	From      string `json:"from,omitempty"`
	FromAgent string `json:"fromAgent,omitempty"`
	Turn      int    `json:"turn,omitempty"`
	Forked    bool   `json:"forked,omitempty"`
}

// ToolContent is one rendered item of a tool call's content.
type ToolContent struct {
	Type       string          `json:"type"` // content | diff | terminal | anything else (raw)
	Text       string          `json:"text,omitempty"`
	Path       string          `json:"path,omitempty"`
	OldText    *string         `json:"oldText,omitempty"`
	NewText    string          `json:"newText,omitempty"`
	TerminalID string          `json:"terminalId,omitempty"`
	Raw        json.RawMessage `json:"raw,omitempty"`

	// terminal, when it is one of ours: the tail of its output (see terminal.View), kept after
	// the terminal is released; ExitStatus once the command has ended; Input while the command
	// runs, so the person may type into it (Session.TerminalInput).
	Output     string                     `json:"output,omitempty"`
	Truncated  bool                       `json:"truncated,omitempty"`
	ExitStatus *schema.TerminalExitStatus `json:"exitStatus,omitempty"`
	Input      bool                       `json:"input,omitempty"`
}

// maxSearchText bounds what SearchText gives for one tool call: the start of a long output is
// enough to find it, and the index stays small.
const maxSearchText = 64 << 10

// SearchText is what the history's full-text search indexes for e. A message, thought, prompt
// or error: its text. A tool call, whose text is its content: the text items, the paths and new
// text of its diffs and the output of its terminals, one per line, at most maxSearchText bytes.
func (e *Entry) SearchText() string {
	switch e.Kind {
	case KindBoundary:
		return ""
	case KindNotice:
		return strings.TrimSpace(e.Notice.Title + "\n" + e.Notice.Description)
	case KindCompaction:
		return e.Compaction.Summary
	case KindSubagent:
		return strings.TrimSpace(e.Subagent.Title + "\n" + e.Subagent.Description)
	case KindElicitation:
		return e.Elicitation.Message
	}
	if e.Kind != KindTool {
		return e.Text
	}
	var b strings.Builder
	add := func(s string) {
		if s == "" || b.Len() >= maxSearchText {
			return
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(s)
	}
	for _, c := range e.Content {
		switch c.Type {
		case "content":
			add(c.Text)
		case "diff":
			add(c.Path)
			add(c.NewText)
		case "terminal":
			add(terminal.PlainText(c.Output)) // found by its words, not its colour codes
		}
	}
	out := b.String()
	if len(out) > maxSearchText {
		cut := maxSearchText
		for cut > 0 && !utf8.RuneStart(out[cut]) { // not inside a rune
			cut--
		}
		out = out[:cut]
	}
	return out
}

// clone returns a deep-enough copy for handing an entry to another goroutine: slices are
// copied, raw JSON is never mutated in place so it is shared.
func (e *Entry) clone() Entry {
	c := *e
	c.Locations = append([]schema.Location(nil), e.Locations...)
	c.Content = append([]ToolContent(nil), e.Content...)
	c.Plan = append([]schema.PlanEntry(nil), e.Plan...)
	c.Attachments = append([]attach.Info(nil), e.Attachments...)
	c.Usage, c.Boundary, c.Notice, c.Compaction = copyOf(e.Usage), copyOf(e.Boundary), copyOf(e.Notice), copyOf(e.Compaction)
	c.Subagent = copyOf(e.Subagent)
	if e.Elicitation != nil {
		c.Elicitation = e.Elicitation.clone()
	}
	return c
}

// copyOf is a pointer to a copy of *p, or nil for nil.
func copyOf[T any](p *T) *T {
	if p == nil {
		return nil
	}
	c := *p
	return &c
}

func toolContent(items []schema.ToolCallContent) []ToolContent {
	out := make([]ToolContent, 0, len(items))
	for _, it := range items {
		tc := ToolContent{Type: it.Type}
		switch it.Type {
		case "content":
			if it.Content != nil && it.Content.Type == "text" {
				tc.Text = it.Content.Text
			} else {
				tc.Raw = it.Raw
			}
		case "diff":
			tc.Path, tc.OldText, tc.NewText = it.Path, it.OldText, it.NewText
		case "terminal":
			tc.TerminalID = it.TerminalID
		default:
			tc.Raw = it.Raw
		}
		out = append(out, tc)
	}
	return out
}
