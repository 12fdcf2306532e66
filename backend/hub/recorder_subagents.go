package hub

import (
	"cmp"

	"agentdesk/backend/acp"
	"agentdesk/backend/store"
)

// The subagent sessions an agent starts inside a session (acp.Subagent) are saved as sessions of
// their own, under the engine's id for each, with their parent's id (store.Session.ParentID), so
// the history shows the tree and a child's transcript opens like any session's. Their events come
// through the session's emitter (acp.Event.ParentID set), in order behind the card that announces
// them, and the session's recorder routes them to one recorder per child.

// recordTree records ev, an event of a subagent session or a card that announces one. The card
// (on the session's stream, or a child's for a grandchild) creates the child's row the first time;
// the child's own events are its entries, its title and its work state. It runs on the session's
// event goroutine, as Record does.
func (r *recorder) recordTree(ev acp.Event) {
	r.mu.Lock()
	if r.children == nil {
		r.children = map[string]*recorder{}
	}
	if ev.Kind == acp.EventEntry && ev.Entry.Kind == acp.KindSubagent {
		sub := ev.Entry.Subagent
		if _, ok := r.children[sub.SessionID]; !ok {
			c := &recorder{w: r.w, sessionID: sub.SessionID, agentID: r.agentID, now: r.now, logf: r.logf,
				seqs: map[string]int{}, outcome: store.OutcomeReady, child: true, parentID: sub.ParentID}
			r.children[sub.SessionID] = c
			if p := r.children[sub.ParentID]; p != nil && p.detached.Load() {
				c.detached.Store(true) // its parent's saved copy was deleted: nothing to hang it on
			} else {
				row := r.base
				now := r.now()
				row.ID, row.ParentID, row.Title, row.Outcome, row.CreatedAt, row.UpdatedAt = sub.SessionID, sub.ParentID,
					cmp.Or(sub.Title, "Subagent"), store.OutcomeReady, now, now
				r.w.CreateSession(row)
			}
		}
	}
	host := r
	if ev.SessionID != r.sessionID {
		host = r.children[ev.SessionID]
	}
	r.mu.Unlock()
	switch {
	case host == nil:
		r.logf("session %s: an event of subagent %s, which no card announced: not saved", r.sessionID, ev.SessionID)
	case host.child:
		if !host.detached.Load() {
			host.recordChild(ev)
		}
	default:
		host.record(ev)
	}
}

// detachChild stops saving the subagent session id of this session, if it is one, and its own
// subagents at every depth (the store deleted them with it).
func (r *recorder) detachChild(id string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	gone := map[string]bool{id: true}
	for changed := true; changed; { // a child's children are known by their parent's id
		changed = false
		for cid, c := range r.children {
			if !gone[cid] && gone[c.parentID] {
				gone[cid], changed = true, true
			}
		}
	}
	for cid := range gone {
		if c := r.children[cid]; c != nil {
			c.detached.Store(true)
		}
	}
}

// recordChild queues the writes of an event of a subagent session: its entries, its title and its
// work state as an outcome (running, or idle with the reason its work stopped). A child has no
// turns of its own: the person prompts its parent.
func (r *recorder) recordChild(ev acp.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch ev.Kind {
	case acp.EventEntry:
		r.w.UpsertEntry(r.row(ev.Entry))
	case acp.EventChunk:
		r.w.AppendText(r.sessionID, ev.EntryID, ev.Text)
	case acp.EventInfo:
		if ev.Title != "" {
			title := ev.Title
			r.w.UpdateSession(r.sessionID, nil, &title)
		}
	case acp.EventState:
		switch ev.State {
		case acp.SubagentRunning, acp.SubagentRequiresAction:
			r.setOutcome(store.OutcomeRunning)
		case acp.SubagentIdle:
			r.setOutcome(cmp.Or(ev.StopReason, store.OutcomeEnded))
		}
	}
}
