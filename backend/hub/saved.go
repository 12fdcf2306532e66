package hub

import (
	"encoding/json"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/receipt"
	"agentdesk/backend/acp/schema"
	"agentdesk/backend/store"
)

// SnapshotFromStore renders a saved session (its rows, as store.Session and store.SessionPart
// return them) in the shape of a live one: the recorder's inverse. An entry whose saved body
// cannot be read comes back as an unknown entry saying so, never as an error. It masks
// nothing: the callers that show it mask (MaskSnapshot).
func SnapshotFromStore(s store.Session, turns []store.Turn, entries []store.Entry) acp.Snapshot {
	snap := acp.Snapshot{SessionID: s.ID, AgentName: s.AgentName, Cwd: s.Cwd, Dirs: s.Dirs, Title: s.Title,
		Entries: []acp.Entry{}, Permissions: []acp.PermissionSummary{}, Turns: []acp.TurnSummary{}}
	for _, row := range entries {
		var e acp.Entry
		if err := json.Unmarshal(row.Body, &e); err != nil {
			e = acp.Entry{ID: row.EntryID, Kind: acp.KindUnknown, Turn: row.Turn, UpdateKind: "unreadable saved entry"}
		}
		if e.Kind != acp.KindTool { // a tool call's text column only serves search
			e.Text = row.Text
		}
		acp.SavedElicitationFields(&e)
		snap.Entries = append(snap.Entries, e)
	}
	ended := map[int]string{}
	for _, t := range turns {
		if !t.EndedAt.IsZero() {
			snap.Turns = append(snap.Turns, acp.TurnSummary{Turn: t.Turn, StopReason: t.StopReason, Message: t.Error,
				Receipt: savedReceipt(t.Receipt)})
			ended[t.Turn] = t.StopReason
		}
	}
	closeOpenTools(snap.Entries, ended)
	return snap
}

// closeOpenTools gives a tool call still pending or in progress under a turn that has ended the
// status the engine gives it at a turn end (acp's CloseOpenTools): cancelled after a stop or a
// crash (interrupted), incomplete otherwise. A saved session is over: no card in it is busy.
// (A process that died mid-turn never closed its cards; older versions did not either.)
func closeOpenTools(entries []acp.Entry, ended map[int]string) {
	for i := range entries {
		e := &entries[i]
		reason, over := ended[e.Turn]
		if e.Kind != acp.KindTool || !over || (e.Status != acp.StatusPending && e.Status != acp.StatusInProgress) {
			continue
		}
		e.Status = acp.StatusIncomplete
		if reason == schema.StopCancelled || reason == schema.StopInterrupted {
			e.Status = acp.StatusCancelled
		}
	}
}

// Decisions turns a saved session's permission rows (store.Store.Permissions) into the
// decisions a snapshot carries (acp.Snapshot.Decisions), so that a reopened session and both
// exports show "Allowed once" under the card. Requests never decided (a crash) are left out:
// Open marks them cancelled, and they are kept so.
func Decisions(perms []store.Permission) []acp.DecisionSummary {
	out := []acp.DecisionSummary{}
	for _, p := range perms {
		if p.Outcome == "" {
			continue
		}
		var options []acp.OptionSummary
		_ = json.Unmarshal(p.Options, &options) // unreadable: the decision names no option
		d := acp.DecisionOf(acp.PermissionSummary{RequestID: p.RequestID, ToolCallID: p.ToolCallID, Options: options},
			p.Outcome, p.OptionID, p.DecidedBy)
		d.RuleID, d.RuleLabel = p.RuleID, p.RuleLabel
		out = append(out, d)
	}
	return out
}

// savedReceipt reads a saved turn's receipt; nil when there is none or it cannot be read (a
// receipt is an extra: an unreadable one hides nothing else of the turn).
func savedReceipt(b []byte) *receipt.Receipt {
	if len(b) == 0 {
		return nil
	}
	var r receipt.Receipt
	if json.Unmarshal(b, &r) != nil {
		return nil
	}
	return &r
}
