package acp

import "agentdesk/backend/acp/receipt"

// EventName is the one Wails event name the app emits Events under.
const EventName = "session:event"

// EventKind discriminates Event.
type EventKind string

// Event kinds. Entries and chunks may be delayed up to CoalesceDelay and chunks merged; the
// others are delivered at once.
const (
	EventState          EventKind = "state"
	EventEntry          EventKind = "entry"
	EventChunk          EventKind = "chunk"
	EventPermission     EventKind = "permission"
	EventPermissionDone EventKind = "permission_done"
	EventTurnEnd        EventKind = "turn_end"
	EventInfo           EventKind = "info"  // the session's title, controls or agent version changed
	EventQueue          EventKind = "queue" // the queued prompts changed: Queue is the whole queue
)

// State is a session's lifecycle state.
type State string

// Session states: starting → idle → running → cancelling → idle, or exited / failed.
const (
	StateStarting   State = "starting"
	StateIdle       State = "idle"
	StateRunning    State = "running"
	StateCancelling State = "cancelling"
	StateExited     State = "exited"
	StateFailed     State = "failed"
)

// Event is THE contract from the engine to the UI (and the store): one payload type, emitted per
// session in Seq order, Seq +1 per event. Its JSON is mirrored by frontend/src/lib/protocol.ts
// and pinned by testdata/events. Which fields are set depends on Kind.
type Event struct {
	SessionID string `json:"sessionId"`
	// ParentID is set on the events of a child session (a subagent): our id of the session that
	// announced it. Such a child's events are state (its work state as the agent reports it, with
	// StopReason), info (its title) and its transcript's entry and chunk events.
	ParentID string    `json:"parentId,omitempty"`
	Seq      uint64    `json:"seq"`
	Kind     EventKind `json:"kind"`

	State   State  `json:"state,omitempty"`   // state
	Message string `json:"message,omitempty"` // state, turn_end: why

	Entry *Entry `json:"entry,omitempty"` // entry: upsert by Entry.ID

	EntryID string `json:"entryId,omitempty"` // chunk: append Text to this entry's text
	Text    string `json:"text,omitempty"`

	// permission, permission_done: the request. A permission_done decided by a rule (no
	// permission event came before it) carries the whole request too: its tool card, title,
	// options and kind.
	RequestID  string          `json:"requestId,omitempty"`
	ToolCallID string          `json:"toolCallId,omitempty"` // the entry id of its tool card
	Title      string          `json:"title,omitempty"`      // also info: the session title
	Options    []OptionSummary `json:"options,omitempty"`    // in the agent's order
	ToolKind   string          `json:"toolKind,omitempty"`
	// permission: the rules the person may make from it.
	RuleOptions []RuleOption `json:"ruleOptions,omitempty"`
	// permission_done, always: the decision as Snapshot.Decisions keeps it (outcome, the option
	// with its name, kind and verdict, who decided, the rule and its words) — the one place it
	// is said, so that the window, the history and the command line read the same fact.
	Decision *DecisionSummary `json:"decision,omitempty"`

	Turn       int              `json:"turn,omitempty"`       // turn_end
	StopReason string           `json:"stopReason,omitempty"` // turn_end
	Receipt    *receipt.Receipt `json:"receipt,omitempty"`    // turn_end: what the turn did

	Controls *Controls `json:"controls,omitempty"` // info (with Title): the whole current set
	// AgentVersion is info's version of the agent (RunningVersion), "" while none is known.
	AgentVersion string `json:"agentVersion,omitempty"`

	Queue []QueuedPrompt `json:"queue,omitempty"` // queue: the whole current queue, in order (absent: empty)
}

// Emitter receives a session's events. Emit is called from one goroutine at a time per session,
// in Seq order. It may be slow: events queue (and chunks merge) behind it without ever blocking
// the protocol.
type Emitter interface {
	Emit(Event)
}

// BatchEmitter is an Emitter that can also take several events at once. The pump hands it each
// flush's events in one call (in Seq order, consecutive, at most MaxBatch), so the app sends a
// stream to the page as one message per flush rather than one per event: fewer messages to
// parse, and the page applies them in one task. EmitBatch must not keep the slice.
type BatchEmitter interface {
	Emitter
	EmitBatch([]Event)
}

// MaxBatch bounds the events of one EmitBatch call: a page applies a batch in one task, so a
// queue that grew behind a slow emitter is delivered in slices rather than in one long task.
const MaxBatch = 256

// EmitAll hands evs to out: in one EmitBatch call when out is a BatchEmitter, else one Emit each.
// Which it is is decided at run time: a type meant to take batches should say so with
// `var _ acp.BatchEmitter = (*T)(nil)`, or a slip in EmitBatch's signature goes unnoticed.
func EmitAll(out Emitter, evs []Event) {
	if b, ok := out.(BatchEmitter); ok {
		b.EmitBatch(evs)
		return
	}
	for _, ev := range evs {
		out.Emit(ev)
	}
}

// EmitterFunc adapts a function to Emitter.
type EmitterFunc func(Event)

var _ Emitter = EmitterFunc(nil)

// Emit calls f.
func (f EmitterFunc) Emit(e Event) { f(e) }
