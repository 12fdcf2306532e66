package hub

import (
	"cmp"
	"context"
	"encoding/json"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/jsonrpc"
	"agentdesk/backend/agents"
	"agentdesk/backend/store"
)

// recorder turns a session's events into store writes. It is the engine ↔ store glue: the engine
// knows nothing of SQLite, the store knows rows, not ACP. Every method only queues (the store's
// Writer never blocks), so recording never slows the protocol down, with one exception: a turn's
// end waits, up to turnEndSync, for the turn's rows to be committed (see Record).
//
// Nothing it writes holds a secret value the agents' masker knows: Record is handed events
// already masked (the hub's liveMasker, which also catches a value cut across two chunks: the
// chunk then comes as the whole entry, upserted whole), and saveCopy and Journal mask what they
// take from the session.
type recorder struct {
	w         *store.Writer
	sessionID string
	agentID   string
	agentCmd  string // the command line of an agents.CustomID session (store.Session.AgentCmd)
	now       func() time.Time
	mask      *agents.Masker // masks the journal and copies (nil: no value known)
	logf      func(string, ...any)

	mu       sync.Mutex     // Record and saveCopy (events vs. a checkpoint's goroutine)
	seqs     map[string]int // entry id → its position in the transcript
	lastSeq  int            // the greatest position given so far
	turn     int            // the turn in progress, for permission rows
	outcome  string         // the session's outcome as last recorded (store's outcomes)
	lastStop string         // the stop reason of the last turn that ended; "" before one has
	starting bool           // the session is opening: a prompt now is one the agent replays

	detached atomic.Bool // the saved copy was deleted: record nothing more
	titled   atomic.Bool // the user named the session: the agent's titles no longer apply

	// base is the session's row as created (agent, folders): a subagent session's row copies it.
	base store.Session
	// children are the recorders of the subagent sessions the agent started, at every depth, by
	// their id (recorder_subagents.go); the session's own recorder routes their events. Guarded by mu.
	children map[string]*recorder
	child    bool   // this records a subagent session: entries, title and state only
	parentID string // a subagent session's: the session that started it
}

// turnEndSync bounds how long Record waits for a turn's rows to be committed before its end is
// passed on: a stuck disk delays the stop reason by that much, and never freezes the session.
const turnEndSync = 2 * time.Second

func newRecorder(w *store.Writer, sessionID string, agent agents.Agent, now func() time.Time, logf func(string, ...any)) *recorder {
	return &recorder{w: w, sessionID: sessionID, agentID: agent.ID, agentCmd: agent.Line, now: now, logf: logf, seqs: map[string]int{}, outcome: store.OutcomeReady}
}

// Record is called from the session's event goroutine, in seq order, with masked events. It
// returns once the event's writes are queued, except for a turn's end: that returns once every
// write queued so far (the whole turn, its stop reason and the session's outcome) is committed
// and synced to disk (the store syncs the batch of a turn end), so a stop reason the page shows
// (the hub's emitters record, then pass on) is never lost to a crash. A store that takes longer
// than turnEndSync is logged and left to catch up; the turn's end is then passed on regardless.
func (r *recorder) Record(ev acp.Event) {
	if r.detached.Load() {
		return
	}
	if ev.ParentID != "" || (ev.Kind == acp.EventEntry && ev.Entry.Kind == acp.KindSubagent) {
		r.recordTree(ev)
		return
	}
	r.record(ev)
	if ev.Kind == acp.EventTurnEnd {
		ctx, cancel := context.WithTimeout(context.Background(), turnEndSync)
		defer cancel()
		if err := r.w.Flush(ctx); err != nil {
			r.logf("session %s: turn %d ended before its history was saved: %v", r.sessionID, ev.Turn, err)
		}
	}
}

// record queues the writes of ev.
func (r *recorder) record(ev acp.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch ev.Kind {
	case acp.EventEntry:
		e := ev.Entry
		if e.Kind == acp.KindUser && !e.Steered { // a steered prompt joins its turn; it starts none
			r.turn = e.Turn
			if _, seen := r.seqs[e.ID]; !seen {
				r.w.StartTurn(store.Turn{SessionID: r.sessionID, Turn: e.Turn, Prompt: e.Text, StartedAt: r.now()})
				if r.starting {
					// A turn the agent replayed while the session opened (session/load): it ended
					// elsewhere, with a stop reason we were not told.
					r.w.EndTurn(r.sessionID, e.Turn, "", "", r.now())
				} else {
					r.setOutcome(store.OutcomeRunning)
				}
				if e.Turn == 1 && !r.titled.Load() { // until the agent names the session, its first prompt does
					title := shorten(e.Text, 80)
					r.w.UpdateSession(r.sessionID, nil, &title)
				}
			}
		}
		r.w.UpsertEntry(r.row(e))
	case acp.EventChunk:
		r.w.AppendText(r.sessionID, ev.EntryID, ev.Text)
	case acp.EventTurnEnd:
		r.w.EndTurn(r.sessionID, ev.Turn, ev.StopReason, ev.Message, r.now())
		if ev.Receipt != nil {
			if b, err := json.Marshal(ev.Receipt); err == nil {
				r.w.SetReceipt(r.sessionID, ev.Turn, b)
			}
		}
		r.lastStop = ev.StopReason
		r.setOutcome(ev.StopReason)
	case acp.EventPermission:
		options, _ := json.Marshal(ev.Options)
		r.w.RequestPermission(store.Permission{SessionID: r.sessionID, RequestID: ev.RequestID, ToolCallID: ev.ToolCallID,
			Title: ev.Title, ToolKind: ev.ToolKind, Turn: r.turn, Options: options, RequestedAt: r.now()})
	case acp.EventPermissionDone:
		d := ev.Decision
		if d == nil {
			break // the engine always sends one; nothing to record without it
		}
		if d.DecidedBy == acp.DecidedByRule {
			// A rule answered before anyone saw it: this one event is the whole request.
			options, _ := json.Marshal(ev.Options)
			now := r.now()
			r.w.RequestPermission(store.Permission{SessionID: r.sessionID, RequestID: ev.RequestID, ToolCallID: ev.ToolCallID,
				Title: ev.Title, ToolKind: ev.ToolKind, Turn: r.turn, Options: options, RequestedAt: now,
				Outcome: d.Outcome, OptionID: d.OptionID, DecidedBy: d.DecidedBy, DecidedAt: now,
				RuleID: d.RuleID, RuleLabel: d.RuleLabel})
			break
		}
		r.w.DecidePermission(r.sessionID, ev.RequestID, d.Outcome, d.OptionID, d.DecidedBy, r.now())
	case acp.EventInfo:
		if ev.Title != "" && !r.titled.Load() { // the agent's own title beats the first prompt
			title := ev.Title
			r.w.UpdateSession(r.sessionID, nil, &title)
		}
	case acp.EventState:
		r.starting = ev.State == acp.StateStarting
		r.recordState(ev)
	}
}

// recordState keeps the outcome true as the session's state changes: a failed start or an
// agent that exited on its own says so; an agent back after a Continue reads as before it
// exited; an exit agentdesk caused (Close, no message) keeps the last turn's stop reason, or
// reads ended when no turn ended. The caller holds r.mu.
func (r *recorder) recordState(ev acp.Event) {
	switch {
	case ev.State == acp.StateFailed || (ev.State == acp.StateExited && ev.Message != ""):
		r.setOutcome(string(ev.State))
	case ev.State == acp.StateExited && r.outcome == store.OutcomeReady:
		r.setOutcome(store.OutcomeEnded)
	case ev.State == acp.StateIdle && (r.outcome == string(acp.StateFailed) || r.outcome == string(acp.StateExited)):
		r.setOutcome(cmp.Or(r.lastStop, store.OutcomeReady))
	}
}

// setOutcome records outcome when it differs from the last one recorded. The caller holds r.mu.
func (r *recorder) setOutcome(outcome string) {
	if outcome != r.outcome {
		r.outcome = outcome
		r.w.SetOutcome(r.sessionID, outcome)
	}
}

// row is e as an entries row, at its first position in the transcript; its text column is what
// search finds it by (a tool call's output, see acp.Entry.SearchText). The body of any other
// kind leaves its text out: that is the text column, which SnapshotFromStore puts back, so a
// long reply is stored (and encoded, and copied) once, not twice. The caller holds r.mu.
func (r *recorder) row(e *acp.Entry) store.Entry {
	seq, ok := r.seqs[e.ID]
	if !ok {
		r.lastSeq++
		seq = r.lastSeq
		r.seqs[e.ID] = seq
	}
	bare := e
	if e.Kind != acp.KindTool {
		c := *e
		c.Text = ""
		bare = &c
	}
	body, _ := json.Marshal(bare) // an Entry always marshals
	return store.Entry{SessionID: r.sessionID, EntryID: e.ID, Turn: e.Turn, Seq: seq,
		Kind: string(e.Kind), Status: e.Status, Title: e.Title, Text: e.SearchText(), Body: body}
}

// saveCopy queues the whole session as snap shows it (store.Writer.SaveCopy), to put back
// what failed writes lost. It must run inside the session's Checkpoint, so that the copy is
// queued after every write of the events it includes and before those of later events.
// Permission rows and the journal are not in a copy.
func (r *recorder) saveCopy(snap acp.Snapshot, agentSessionID string) {
	if r.detached.Load() {
		return
	}
	snap = MaskSnapshot(r.mask, snap) // the session's own state holds the text in clear
	r.mu.Lock()
	defer r.mu.Unlock()
	c := store.SessionCopy{KeepTitle: r.titled.Load(), Session: store.Session{ID: r.sessionID,
		AgentID: r.agentID, AgentCmd: r.agentCmd, AgentName: snap.AgentName, AgentSessionID: agentSessionID, Cwd: snap.Cwd, Dirs: snap.Dirs,
		Title: snap.Title, Outcome: r.outcome, UpdatedAt: r.now()}}
	ended := map[int]acp.TurnSummary{}
	for _, t := range snap.Turns {
		ended[t.Turn] = t
	}
	for i := range snap.Entries {
		e := &snap.Entries[i]
		if e.Kind == acp.KindUser && !e.Steered {
			t := store.Turn{Turn: e.Turn, Prompt: e.Text}
			if sum, ok := ended[e.Turn]; ok {
				t.EndedAt, t.StopReason, t.Error = r.now(), sum.StopReason, sum.Message
			}
			c.Turns = append(c.Turns, t)
			if c.Session.Title == "" {
				c.Session.Title = shorten(e.Text, 80)
			}
		}
		c.Entries = append(c.Entries, r.row(e))
	}
	if c.Session.Title == "" {
		c.Session.Title = "New session"
	}
	r.w.SaveCopy(c)
}

// Journal queues one raw protocol message, with the agents' secret values masked (an agent
// that echoes its API key, a login's parameters): the journal is what the inspector shows.
func (r *recorder) Journal(dir jsonrpc.Direction, method string, line []byte) {
	if r.detached.Load() {
		return
	}
	r.w.Message(store.Message{SessionID: r.sessionID, Direction: string(dir), Method: method, JSON: r.mask.MaskBytes(line), At: r.now()})
}

// shorten returns the first line of s, cut to at most n runes.
func shorten(s string, n int) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
