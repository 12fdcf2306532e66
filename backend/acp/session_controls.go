package acp

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"agentdesk/backend/acp/schema"
)

// applyMetaLocked keeps what a metadata update says and announces the new session info.
func (s *Session) applyMetaLocked(u schema.Update) {
	switch u.Kind {
	case schema.UpdateAvailableCommands:
		var p struct {
			Commands []schema.SlashCommand `json:"availableCommands"`
		}
		if json.Unmarshal(u.Raw, &p) == nil {
			s.controls.Commands = p.Commands
		}
	case schema.UpdateCurrentMode:
		var p struct {
			Current string `json:"currentModeId"`
			Legacy  string `json:"modeId"` // one docs example uses this name
		}
		if json.Unmarshal(u.Raw, &p) == nil {
			if p.Current == "" {
				p.Current = p.Legacy
			}
			s.controls.Modes = changed(s.controls.Modes, func(m *schema.Modes) { m.CurrentModeID = p.Current })
		}
	case schema.UpdateConfigOptions:
		var p struct {
			Options []schema.ConfigOption `json:"configOptions"`
		}
		if json.Unmarshal(u.Raw, &p) == nil {
			s.controls.ConfigOptions = p.Options // always the complete list
		}
	case schema.UpdateSessionInfo:
		var p struct {
			Title json.RawMessage `json:"title"`
		}
		if json.Unmarshal(u.Raw, &p) == nil && len(p.Title) > 0 { // absent: leave the title alone
			var title *string
			_ = json.Unmarshal(p.Title, &title) // null clears it
			s.title = ""
			if title != nil {
				s.title = *title
			}
		}
	}
	s.pushInfoLocked()
}

// pushInfoLocked announces the title, the controls and the agent's version (RunningVersion). The event shares Modes and Models with
// s.controls, so those are never written in place (see changed): the pump serialises events
// without s.mu.
func (s *Session) pushInfoLocked() {
	c := s.controls
	s.pushEvent(Event{Kind: EventInfo, Title: s.title, Controls: &c, AgentVersion: RunningVersion(s.cfg.AgentVersion, s.agentInfo)})
}

// SetMode switches the legacy mode. It waits for the agent's answer.
func (s *Session) SetMode(ctx context.Context, modeID string) error {
	has := func(m *schema.Modes) bool {
		return slices.ContainsFunc(m.AvailableModes, func(m schema.Mode) bool { return m.ID == modeID })
	}
	pick := func(m *schema.Modes) { m.CurrentModeID = modeID }
	return setLegacy(s, ctx, legacyCall{"mode", schema.MethodSetMode, "modeId", modeID}, &s.controls.Modes, has, pick)
}

// SetModel switches the legacy model (session/set_model) to one the agent offers; it waits for
// the agent's answer.
func (s *Session) SetModel(ctx context.Context, modelID string) error {
	has := func(m *schema.Models) bool {
		return slices.ContainsFunc(m.AvailableModels, func(m schema.Model) bool { return m.ModelID == modelID })
	}
	pick := func(m *schema.Models) { m.CurrentModelID = modelID }
	return setLegacy(s, ctx, legacyCall{"model", schema.MethodSetModel, "modelId", modelID}, &s.controls.Models, has, pick)
}

// legacyCall is a change of a legacy control (mode, model): what it is, its session/set_* method
// and parameter, and the id asked for.
type legacyCall struct{ what, method, param, id string }

// setLegacy is SetMode and SetModel: it refuses an id the agent does not offer (list, in
// s.controls, is nil when it offers none; has tells whether it holds the id), asks the agent,
// and once it agrees makes the id the current one (pick, on a changed copy: see pushInfoLocked)
// and announces it.
func setLegacy[T any](s *Session, ctx context.Context, c legacyCall, list **T, has func(*T) bool, pick func(*T)) error {
	s.mu.Lock()
	offered := *list
	s.unlock()
	if offered == nil {
		return &NotOfferedError{Agent: s.cfg.AgentName, What: c.what}
	}
	if !has(offered) {
		return &NotOfferedError{Agent: s.cfg.AgentName, What: c.what, ID: c.id}
	}
	if err := s.callSession(ctx, c.method, map[string]any{c.param: c.id}, nil); err != nil {
		return err
	}
	s.mu.Lock()
	*list = changed(*list, pick)
	s.pushInfoLocked()
	s.unlock()
	return nil
}

// SetConfigOption sets one config option to value (a JSON string or boolean); the agent answers
// with the complete new list, which replaces ours.
func (s *Session) SetConfigOption(ctx context.Context, configID string, value json.RawMessage) error {
	s.mu.Lock()
	var opt *schema.ConfigOption
	for i := range s.controls.ConfigOptions {
		if s.controls.ConfigOptions[i].ID == configID {
			opt = &s.controls.ConfigOptions[i]
		}
	}
	s.unlock()
	if opt == nil {
		return &NotOfferedError{Agent: s.cfg.AgentName, What: "setting", ID: configID}
	}
	params := map[string]any{"configId": configID, "value": value}
	if opt.Type == "boolean" {
		params["type"] = "boolean"
	}
	var res struct {
		Options []schema.ConfigOption `json:"configOptions"`
	}
	if err := s.callSession(ctx, schema.MethodSetConfigOption, params, &res); err != nil {
		return err
	}
	s.mu.Lock()
	if res.Options != nil {
		s.controls.ConfigOptions = res.Options
	}
	s.pushInfoLocked()
	s.unlock()
	return nil
}

// callSession sends a session-scoped request (sessionId added to params) and explains failures.
func (s *Session) callSession(ctx context.Context, method string, params map[string]any, result any) error {
	s.mu.Lock()
	conn, id := s.conn, s.agentSessionID
	s.unlock()
	if conn == nil || id == "" {
		return fmt.Errorf("%s: %w", s.cfg.AgentName, ErrNotStarted)
	}
	params["sessionId"] = id
	if err := conn.Call(ctx, method, params, result); err != nil {
		return fmt.Errorf("%s %s: %w", s.cfg.AgentName, method, s.explain(err))
	}
	return nil
}
