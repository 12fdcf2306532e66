package main

import (
	"encoding/json"
	"fmt"

	"agentdesk/backend/acp"
)

// The session-control and inspector verbs of Sessions, kept in their own file so
// app_sessions.go stays about the session lifecycle.

// SetMode switches the live session's legacy mode.
func (ss *Sessions) SetMode(sessionID, modeID string) error {
	return ss.onLive(sessionID, func(s *acp.Session) error { return s.SetMode(ss.ctx, modeID) })
}

// SetModel switches the live session's legacy model.
func (ss *Sessions) SetModel(sessionID, modelID string) error {
	return ss.onLive(sessionID, func(s *acp.Session) error { return s.SetModel(ss.ctx, modelID) })
}

// SetConfigOption sets a config option of the live session; valueJSON is the value as JSON (a
// quoted string for a select, true or false for a boolean).
func (ss *Sessions) SetConfigOption(sessionID, configID, valueJSON string) error {
	if !json.Valid([]byte(valueJSON)) {
		return fmt.Errorf("the value for %q is not JSON: %s", configID, valueJSON)
	}
	return ss.onLive(sessionID, func(s *acp.Session) error { return s.SetConfigOption(ss.ctx, configID, json.RawMessage(valueJSON)) })
}

// JournalLine is one raw JSON-RPC message of a session, for the protocol inspector.
type JournalLine struct {
	Direction string `json:"direction" ts_type:"'in' | 'out'"` // in (agent → agentdesk) | out
	Method    string `json:"method,omitempty"`
	JSON      string `json:"json"`
	At        string `json:"at"` // RFC3339 with milliseconds
}

// Messages returns the raw protocol traffic of a session (live or saved), oldest first, with
// secret values masked (also those the journal was written before agentdesk knew).
func (ss *Sessions) Messages(sessionID string) ([]JournalLine, error) {
	if ss.store == nil {
		return nil, ss.dbErr
	}
	ss.flushHistory()
	rows, err := ss.store.Messages(ss.ctx, sessionID)
	if err != nil {
		return nil, fmt.Errorf("could not read the protocol messages of %s: %w", sessionID, err)
	}
	out := make([]JournalLine, len(rows))
	for i, r := range rows {
		out[i] = JournalLine{Direction: r.Direction, Method: r.Method, JSON: ss.catalog.Masker().Mask(string(r.JSON)), At: r.At.Format("2006-01-02T15:04:05.000Z07:00")}
	}
	return out, nil
}
