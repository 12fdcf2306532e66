package acp

import (
	"slices"

	"agentdesk/backend/acp/receipt"
)

// TurnSummary is how a turn ended, for snapshots.
type TurnSummary struct {
	Turn       int    `json:"turn"`
	StopReason string `json:"stopReason,omitempty"`
	Message    string `json:"message,omitempty"`
	// Receipt is what the turn did (package receipt); nil for turns saved before receipts existed.
	Receipt *receipt.Receipt `json:"receipt,omitempty"`
}

// Snapshot is a session's whole visible state at event Seq: the fold of events 1..Seq. The UI
// replaces its state with it when it opens a session and after a gap in seq, and applies only
// the events after Seq. The same shape shows saved sessions (State "").
type Snapshot struct {
	SessionID   string              `json:"sessionId"`
	Seq         uint64              `json:"seq"`
	State       State               `json:"state"`
	Message     string              `json:"message,omitempty"`
	AgentName   string              `json:"agentName"`
	Cwd         string              `json:"cwd"`
	Dirs        []string            `json:"dirs,omitempty"` // the additional folders (Config.Dirs)
	Title       string              `json:"title"`
	Entries     []Entry             `json:"entries"`
	Permissions []PermissionSummary `json:"permissions"`
	Decisions   []DecisionSummary   `json:"decisions"` // the closed permission requests, in order
	Turns       []TurnSummary       `json:"turns"`
	Stderr      string              `json:"stderr,omitempty"`
	Controls    *Controls           `json:"controls,omitempty"`
	Queue       []QueuedPrompt      `json:"queue,omitempty"` // the prompts waiting to be sent, in order

	// AgentVersion is the agent's version as shown (RunningVersion): the installed one (a preset's
	// package, a registry agent), else the one it sent in initialize, else "".
	AgentVersion string `json:"agentVersion,omitempty"`
}

// Snapshot returns the whole visible state: exactly the fold of the session's events 1..Seq.
// It never waits for the Emitter (a slow or stuck one included) and holds the session only to
// copy its state. Events up to Seq may still be on their way to the Emitter: a consumer that
// replaces its state with a snapshot drops those (Seq <= snap.Seq); every later event has a
// greater Seq and carries only what the snapshot does not have, so it neither misses nor
// doubles one.
func (s *Session) Snapshot() Snapshot {
	s.mu.Lock()
	defer s.unlock()
	return s.snapshotLocked()
}

// Checkpoint calls fn with the session's snapshot at a point between two events: every event
// up to snap.Seq has been delivered to the Emitter, and none after it is until fn returns. A
// recorder uses it to write a copy in order with the events it records. fn runs on the
// goroutine that delivers the events, between two Emit calls, and Checkpoint returns once it
// has: so it waits for the events queued before it to be delivered, but never holds the
// session meanwhile. fn must not call Checkpoint; once the session is closed, fn runs on the
// caller's goroutine after the last event.
func (s *Session) Checkpoint(fn func(snap Snapshot)) {
	s.mu.Lock()
	snap := s.snapshotLocked()
	m := s.pump.checkpoint(snap, fn)
	s.unlock()
	if m == nil { // closed: the pump delivers what it has and stops
		<-s.pump.done
		fn(snap)
		return
	}
	<-m.done
}

// snapshotLocked returns the state the events queued so far lead to; the caller holds s.mu, so
// nothing new is queued meanwhile.
func (s *Session) snapshotLocked() Snapshot {
	snap := Snapshot{
		SessionID: s.cfg.ID, Seq: s.pump.at(), State: s.state, Message: s.stateMsg,
		AgentName: s.cfg.AgentName, AgentVersion: RunningVersion(s.cfg.AgentVersion, s.agentInfo), Cwd: s.cfg.Cwd, Dirs: slices.Clone(s.cfg.Dirs), Title: s.title,
		Entries: s.tr.Entries(), Turns: append([]TurnSummary{}, s.turns...), Permissions: s.perms.summaries(),
		Decisions: append([]DecisionSummary{}, s.perms.decisions...),
	}
	c := s.controls
	snap.Controls = &c
	if len(s.queue.items) > 0 {
		snap.Queue = s.queue.list()
	}
	if s.transport != nil {
		snap.Stderr = s.transport.StderrTail()
	}
	return snap
}
