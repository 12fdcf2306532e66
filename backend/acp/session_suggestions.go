package acp

import (
	"encoding/json"
)

// MethodClaudeSDKMessage is claude-agent-acp's extension notification that forwards raw Claude
// Agent SDK messages; one of type "prompt_suggestion" carries a predicted next prompt. No ACP
// update carries prompt suggestions yet, so this is the one shape a real agent sends them in.
const MethodClaudeSDKMessage = "_claude/sdkMessage"

// Bounds of the prompt suggestions shown under the composer.
const (
	MaxSuggestions    = 3   // the newest are kept
	MaxSuggestionText = 500 // bytes, one plain line (plainLine)
)

// suggest takes a _claude/sdkMessage notification: a prompt_suggestion for this session's agent
// session adds its text to Controls.Suggestions (one plain line, bounded; a repeat is not added
// twice; beyond MaxSuggestions the oldest goes) and tells the window. Any other SDK message, one
// for another session, and one that does not decode are ignored (logged).
func (s *Session) suggest(params json.RawMessage) {
	var p struct {
		SessionID string `json:"sessionId"`
		Message   struct {
			Type       string `json:"type"`
			Suggestion string `json:"suggestion"`
		} `json:"message"`
	}
	if json.Unmarshal(params, &p) != nil || p.Message.Type != "prompt_suggestion" {
		s.cfg.Logf("%s: ignored %s (not a prompt suggestion)", s.cfg.AgentName, MethodClaudeSDKMessage)
		return
	}
	text := plainLine(p.Message.Suggestion, MaxSuggestionText)
	s.mu.Lock()
	defer s.unlock()
	if text == "" || p.SessionID != s.agentSessionID || s.agentSessionID == "" {
		return
	}
	list := make([]string, 0, MaxSuggestions)
	for _, old := range s.controls.Suggestions {
		if old != text {
			list = append(list, old)
		}
	}
	list = append(list, text)
	if len(list) > MaxSuggestions {
		list = list[len(list)-MaxSuggestions:]
	}
	s.controls.Suggestions = list // a new slice: events already handed out keep theirs
	s.pushInfoLocked()
}

// clearSuggestionsLocked drops the suggestions when a turn starts: they answered the last one.
func (s *Session) clearSuggestionsLocked() {
	if len(s.controls.Suggestions) > 0 {
		s.controls.Suggestions = nil
		s.pushInfoLocked()
	}
}
