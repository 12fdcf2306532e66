package main

import (
	"encoding/json"
	"fmt"
)

// The session-control and inspector verbs of App: thin translations like the rest of app.go,
// kept in their own file so app.go stays about the session lifecycle.

// SetMode switches the live session's legacy mode.
func (a *App) SetMode(sessionID, modeID string) error {
	s, err := a.hub.Session(sessionID)
	if err != nil {
		return err
	}
	return s.SetMode(a.ctx, modeID)
}

// SetModel switches the live session's legacy model.
func (a *App) SetModel(sessionID, modelID string) error {
	s, err := a.hub.Session(sessionID)
	if err != nil {
		return err
	}
	return s.SetModel(a.ctx, modelID)
}

// SetConfigOption sets a config option of the live session; valueJSON is the value as JSON (a
// quoted string for a select, true or false for a boolean).
func (a *App) SetConfigOption(sessionID, configID, valueJSON string) error {
	if !json.Valid([]byte(valueJSON)) {
		return fmt.Errorf("the value for %q is not JSON: %s", configID, valueJSON)
	}
	s, err := a.hub.Session(sessionID)
	if err != nil {
		return err
	}
	return s.SetConfigOption(a.ctx, configID, json.RawMessage(valueJSON))
}

// JournalLine is one raw JSON-RPC message of a session, for the protocol inspector.
type JournalLine struct {
	Direction string `json:"direction"` // in (agent → agentdesk) | out
	Method    string `json:"method,omitempty"`
	JSON      string `json:"json"`
	At        string `json:"at"` // RFC3339 with milliseconds
}

// Messages returns the raw protocol traffic of a session (live or saved), oldest first, with
// secret values masked (also those the journal was written before agentdesk knew).
func (a *App) Messages(sessionID string) ([]JournalLine, error) {
	if a.store == nil {
		return nil, a.dbErr
	}
	a.flushHistory()
	rows, err := a.store.Messages(a.ctx, sessionID)
	if err != nil {
		return nil, fmt.Errorf("could not read the protocol messages of %s: %w", sessionID, err)
	}
	out := make([]JournalLine, len(rows))
	for i, r := range rows {
		out[i] = JournalLine{Direction: r.Direction, Method: r.Method, JSON: a.agents.Masker().Mask(string(r.JSON)), At: r.At.Format("2006-01-02T15:04:05.000Z07:00")}
	}
	return out, nil
}
