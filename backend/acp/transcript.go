package acp

import (
	"encoding/json"
	"fmt"
	"strings"

	"agentdesk/backend/acp/attach"
	"agentdesk/backend/acp/schema"
	"agentdesk/backend/acp/terminal"
)

// Change is one effect of reducing something into a transcript: either a whole entry to upsert
// by id (Entry set, a copy the caller may keep), or text appended to an entry (EntryID, Text).
type Change struct {
	Entry   *Entry
	EntryID string
	Text    string
}

// Transcript is the pure reducer from protocol updates to transcript entries. It does no I/O
// and is not safe for concurrent use: the Session serialises access.
//
// Rules (docs/acp.md): tool calls are upserted by id from whichever of tool_call,
// tool_call_update or a permission request arrives first, and a tool_call in a later turn that
// reuses an id starts a new card; chunks join the open message of their kind until a different
// messageId or another item closes it; the plan and usage are replaced, one entry per turn;
// unknown kinds and content types become unknown entries with their raw JSON.
type Transcript struct {
	entries  []*Entry
	byID     map[string]int
	tools    map[string]string // toolCallId → entry id of its latest card
	plans    map[int]string    // turn → plan entry id
	usages   map[int]string    // turn → usage entry id
	open     string            // entry id of the message chunks currently join, or ""
	openText strings.Builder   // the open message's text from its second chunk on, grown in place
	turn     int
	ended    int // the last turn that has ended (CloseOpenTools): its cards stay closed
	n        int

	terms    map[string]terminal.View // terminal id → its latest view, kept after release (transcript_terminal.go)
	termRefs map[string][]string      // terminal id → ids of the entries whose content shows it
	nTerms   int
	ownTerms map[string]*agentTerminalState // terminals the agent runs itself (transcript_meta.go)

	compactions map[string]string // compaction id → its entry id (transcript_notices.go)
}

// NewTranscript returns an empty transcript at turn 0 (updates before the first prompt).
func NewTranscript() *Transcript {
	return &Transcript{
		byID:   map[string]int{},
		tools:  map[string]string{},
		plans:  map[int]string{},
		usages: map[int]string{},
	}
}

// Turn is the number of the current (or last) turn; 0 before the first prompt.
func (t *Transcript) Turn() int { return t.turn }

// Entries returns copies of all entries in order.
func (t *Transcript) Entries() []Entry {
	out := make([]Entry, len(t.entries))
	for i, e := range t.entries {
		out[i] = e.clone()
	}
	return out
}

// Entry returns a copy of the entry with id, if any.
func (t *Transcript) Entry(id string) (Entry, bool) {
	i, ok := t.byID[id]
	if !ok {
		return Entry{}, false
	}
	return t.entries[i].clone(), true
}

// StartTurn begins turn number turn with the user's prompt text and what was attached to it.
func (t *Transcript) StartTurn(turn int, prompt string, attachments ...attach.Info) Change {
	t.turn = turn
	t.open = ""
	return t.add(&Entry{Kind: KindUser, Text: prompt, Attachments: attachments})
}

// AddBoundary appends the entry that shows where a continued session picks up.
func (t *Transcript) AddBoundary(b Boundary) Change {
	t.open = ""
	return t.add(&Entry{Kind: KindBoundary, Boundary: &b})
}

// Adopt appends entries another transcript built (a session/load replay's turns we did not
// have): each gets a new id here, a user entry starts the next turn, and the entries after it
// belong to that turn. It returns the upserts that announce them.
func (t *Transcript) Adopt(entries []Entry) []Change {
	t.open = ""
	out := make([]Change, 0, len(entries))
	for i := range entries {
		e := entries[i].clone()
		if e.Kind == KindUser {
			t.turn++
		}
		c := t.add(&e)
		switch e.Kind {
		case KindTool:
			t.tools[e.ToolCallID] = c.Entry.ID
		case KindPlan:
			if e.PlanDoc == nil { // a plan by id is found by its id (transcript_plans.go)
				t.plans[t.turn] = c.Entry.ID
			}
		case KindUsage:
			t.usages[t.turn] = c.Entry.ID
		}
		out = append(out, c)
	}
	t.ended = t.turn // the agent ended those turns elsewhere
	return out
}

// AddError appends an error entry to the current turn.
func (t *Transcript) AddError(message string, data json.RawMessage, stderr string) Change {
	t.open = ""
	return t.add(&Entry{Kind: KindError, Text: message, Data: data, Stderr: stderr})
}

// Apply reduces one update. Metadata updates (commands, modes, config, title) change nothing.
func (t *Transcript) Apply(u schema.Update) []Change {
	switch {
	case u.Chunk != nil:
		return t.chunk(u)
	case u.ToolCall != nil:
		return []Change{t.UpsertTool(*u.ToolCall, u.Kind == schema.UpdateToolCall)}
	case u.Plan != nil:
		t.open = ""
		return []Change{t.perTurn(t.plans, &Entry{Kind: KindPlan, Plan: u.Plan})}
	case u.Usage != nil:
		return []Change{t.perTurn(t.usages, &Entry{Kind: KindUsage, Usage: u.Usage})}
	case u.IsMetadata():
		return nil
	default:
		if c, ok := t.notices(u); ok {
			return []Change{c}
		}
		return []Change{t.unknown(u.Kind, u.Raw)}
	}
}

// chunkKinds maps a chunk update to the entry it grows.
var chunkKinds = map[string]EntryKind{
	schema.UpdateUserMessageChunk:  KindUser,
	schema.UpdateAgentMessageChunk: KindAgent,
	schema.UpdateAgentThoughtChunk: KindThought,
}

func (t *Transcript) chunk(u schema.Update) []Change {
	kind := chunkKinds[u.Kind]
	text, ok := schema.BlockText(u.Chunk.Content)
	if !ok {
		return []Change{t.unknown(u.Kind+"/"+u.Chunk.Content.Type, u.Raw)}
	}
	if i, isOpen := t.byID[t.open]; isOpen {
		e := t.entries[i]
		if e.Kind == kind && (u.Chunk.MessageID == "" || u.Chunk.MessageID == e.MessageID) {
			// Append in amortised O(1): Builder.String does not copy, so e.Text stays current
			// without re-copying a long message on every chunk. The builder starts at the
			// second chunk: a message of one chunk (a huge line) keeps the decoded string.
			if t.openText.Len() == 0 {
				t.openText.Grow(2 * (len(e.Text) + len(text)))
				t.openText.WriteString(e.Text)
			}
			t.openText.WriteString(text)
			e.Text = t.openText.String()
			return []Change{{EntryID: e.ID, Text: text}}
		}
	}
	c := t.add(&Entry{Kind: kind, Text: text, MessageID: u.Chunk.MessageID})
	t.open = c.Entry.ID
	t.openText = strings.Builder{}
	return []Change{c}
}

// UpsertTool creates or patches the card of a tool call; only fields present in f change.
// create says f came from tool_call, which starts a new card when the id belongs to an earlier
// turn (agents reuse ids such as "call_1" across turns). The card of a turn that has ended is
// never reopened: a late update may finish it (completed, failed) but not set it pending or
// in progress again.
func (t *Transcript) UpsertTool(f schema.ToolCallFields, create bool) Change {
	t.open = ""
	var e *Entry
	if id, ok := t.tools[f.ToolCallID]; ok {
		e = t.entries[t.byID[id]]
		if create && e.Turn != t.turn {
			e = nil
		}
	}
	if e == nil {
		e = t.insert(&Entry{Kind: KindTool, ToolCallID: f.ToolCallID, Title: f.ToolCallID,
			ToolKind: "other", Status: StatusPending})
		t.tools[f.ToolCallID] = e.ID
	}
	if f.Title != nil {
		e.Title = *f.Title
	}
	if len(f.Name) > 0 {
		e.ToolName = toolName(f.Name, e.ToolName)
	}
	if f.Kind != nil {
		e.ToolKind = *f.Kind
	}
	if f.Status != nil && !(e.Turn <= t.ended && reopens(*f.Status)) {
		e.Status = *f.Status
	}
	if f.Content != nil {
		e.Content = toolContent(*f.Content)
		t.showTerminals(e)
	}
	if m := decodeToolMeta(f.Meta); m != nil {
		t.agentTerminal(e, *m)
	}
	if f.Locations != nil {
		e.Locations = append([]schema.Location(nil), (*f.Locations)...)
	}
	if len(f.RawInput) > 0 {
		e.RawInput = f.RawInput
	}
	if len(f.RawOutput) > 0 {
		e.RawOutput = f.RawOutput
	}
	c := e.clone()
	return Change{Entry: &c}
}

// reopens reports the statuses of a call still under way.
func reopens(status string) bool { return status == StatusPending || status == StatusInProgress }

// ToolEntryID is the id of the card of a tool call, or "" when there is none yet.
func (t *Transcript) ToolEntryID(toolCallID string) string { return t.tools[toolCallID] }

// CloseOpenTools gives every unfinished (pending or in-progress) tool call of the current turn
// status, StatusCancelled after Stop or StatusIncomplete when the turn ended around it, and
// returns the changes. A later update from the agent may still set another status.
func (t *Transcript) CloseOpenTools(status string) []Change {
	t.ended = t.turn
	var out []Change
	for _, e := range t.entries {
		if e.Kind == KindTool && e.Turn == t.turn && (e.Status == StatusPending || e.Status == StatusInProgress) {
			e.Status = status
			c := e.clone()
			out = append(out, Change{Entry: &c})
		}
	}
	return out
}

func (t *Transcript) perTurn(ids map[int]string, e *Entry) Change {
	if id, ok := ids[t.turn]; ok {
		old := t.entries[t.byID[id]]
		e.ID, e.Turn = old.ID, old.Turn
		*old = *e
		c := old.clone()
		return Change{Entry: &c}
	}
	c := t.add(e)
	ids[t.turn] = c.Entry.ID
	return c
}

func (t *Transcript) unknown(kind string, raw json.RawMessage) Change {
	t.open = ""
	if kind == "" {
		kind = "(missing sessionUpdate)"
	}
	return t.add(&Entry{Kind: KindUnknown, UpdateKind: kind, Raw: raw})
}

// insert appends e to the current turn under a new id and returns it.
func (t *Transcript) insert(e *Entry) *Entry {
	t.n++
	e.ID = fmt.Sprintf("e%d", t.n)
	e.Turn = t.turn
	t.byID[e.ID] = len(t.entries)
	t.entries = append(t.entries, e)
	return e
}

// add inserts e and returns the upsert that announces it.
func (t *Transcript) add(e *Entry) Change {
	c := t.insert(e).clone()
	return Change{Entry: &c}
}

// Markdown renders the transcript for golden tests and export: every entry renders itself.
func (t *Transcript) Markdown() string {
	var b strings.Builder
	for _, e := range t.entries {
		b.WriteString(EntryMarkdown(e))
		b.WriteString("\n")
	}
	return b.String()
}
