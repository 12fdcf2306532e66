package hub

import (
	"encoding/json"

	"agentdesk/backend/acp"
	"agentdesk/backend/store"
)

// SnapshotFromStore renders a saved session (its rows, as store.Session and store.SessionPart
// return them) in the shape of a live one: the recorder's inverse. An entry whose saved body
// cannot be read comes back as an unknown entry saying so, never as an error. It masks
// nothing: the callers that show it mask (MaskSnapshot).
func SnapshotFromStore(s store.Session, turns []store.Turn, entries []store.Entry) acp.Snapshot {
	snap := acp.Snapshot{SessionID: s.ID, AgentName: s.AgentName, Cwd: s.Cwd, Title: s.Title,
		Entries: []acp.Entry{}, Permissions: []acp.PermissionSummary{}, Turns: []acp.TurnSummary{}}
	for _, row := range entries {
		var e acp.Entry
		if err := json.Unmarshal(row.Body, &e); err != nil {
			e = acp.Entry{ID: row.EntryID, Kind: acp.KindUnknown, Turn: row.Turn, UpdateKind: "unreadable saved entry"}
		}
		if e.Kind != acp.KindTool { // a tool call's text column only serves search
			e.Text = row.Text
		}
		snap.Entries = append(snap.Entries, e)
	}
	for _, t := range turns {
		if !t.EndedAt.IsZero() {
			snap.Turns = append(snap.Turns, acp.TurnSummary{Turn: t.Turn, StopReason: t.StopReason, Message: t.Error})
		}
	}
	return snap
}
