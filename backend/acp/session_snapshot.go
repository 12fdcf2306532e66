package acp

// TurnSummary is how a turn ended, for snapshots.
type TurnSummary struct {
	Turn       int    `json:"turn"`
	StopReason string `json:"stopReason,omitempty"`
	Message    string `json:"message,omitempty"`
}

// Snapshot is a session's whole visible state at event Seq; the UI replaces its state with it
// after a gap in seq. The same shape shows saved sessions (State "").
type Snapshot struct {
	SessionID   string              `json:"sessionId"`
	Seq         uint64              `json:"seq"`
	State       State               `json:"state"`
	Message     string              `json:"message,omitempty"`
	AgentName   string              `json:"agentName"`
	Cwd         string              `json:"cwd"`
	Title       string              `json:"title"`
	Entries     []Entry             `json:"entries"`
	Permissions []PermissionSummary `json:"permissions"`
	Turns       []TurnSummary       `json:"turns"`
	Stderr      string              `json:"stderr,omitempty"`
	Controls    *Controls           `json:"controls,omitempty"`
}

// Snapshot returns the whole visible state, consistent with the last event delivered: it first
// delivers everything queued, so its Seq is exactly the last emitted event's.
func (s *Session) Snapshot() Snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.snapshotLocked()
}

// Checkpoint calls fn with the session's snapshot at a point between two events: every event
// up to snap.Seq has been delivered to the Emitter, and none after it is until fn returns. A
// recorder uses it to write a copy in order with the events it records. fn runs on the
// caller's goroutine with the session locked: it must return quickly and not call the session.
func (s *Session) Checkpoint(fn func(snap Snapshot)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	fn(s.snapshotLocked())
}

// snapshotLocked delivers the queued events and returns the state they lead to; the caller
// holds s.mu, so nothing new is queued meanwhile.
func (s *Session) snapshotLocked() Snapshot {
	seq := s.pump.flushSeq()
	snap := Snapshot{
		SessionID: s.cfg.ID, Seq: seq, State: s.state, Message: s.stateMsg,
		AgentName: s.cfg.AgentName, Cwd: s.cfg.Cwd, Title: s.title,
		Entries: s.tr.Entries(), Turns: append([]TurnSummary{}, s.turns...), Permissions: []PermissionSummary{},
	}
	for _, p := range s.perms {
		snap.Permissions = append(snap.Permissions, p.summary)
	}
	c := s.controls
	snap.Controls = &c
	if s.transport != nil {
		snap.Stderr = s.transport.StderrTail()
	}
	return snap
}
