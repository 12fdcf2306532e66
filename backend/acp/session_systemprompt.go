package acp

import (
	"unicode/utf8"

	"agentdesk/backend/acp/schema"
)

// MaxSystemPrompt bounds the house rules (Config.SystemPrompt) in bytes: the store and the
// window refuse more, and the engine never sends more than this.
const MaxSystemPrompt = 32 << 10

// systemPromptLocked is the systemPrompt of a session lifecycle call (session/new, load, resume,
// fork): the person's house rules in append mode when the agent advertises
// sessionCapabilities.systemPrompt, else nil. Only append is sent, the one mode every such agent
// takes (override would drop the agent's own safety guidance). An agent that does not take them
// is not sent them; the person is told once, in a notice, since rules they wrote are not followed.
func (s *Session) systemPromptLocked() *schema.SystemPrompt {
	text := s.cfg.SystemPrompt
	if text == "" {
		return nil
	}
	if !s.caps.sessionCap("systemPrompt") {
		if !s.systemPromptTold {
			s.systemPromptTold = true
			s.cfg.Logf("session %s: %s does not take house rules (sessionCapabilities.systemPrompt); not sent", s.cfg.ID, s.cfg.AgentName)
			s.pushChange(s.tr.AddNotice(Notice{Severity: "info", Title: s.cfg.AgentName + " does not take house rules",
				Description: "Your house rules for this agent and folder were not sent: the agent does not accept a system prompt from agentdesk."}))
		}
		return nil
	}
	if len(text) > MaxSystemPrompt { // the store refuses more; a caller that did not is cut, never the agent's problem
		text = text[:MaxSystemPrompt]
		for !utf8.ValidString(text) {
			text = text[:len(text)-1]
		}
	}
	return &schema.SystemPrompt{Mode: schema.SystemPromptAppend, Content: []schema.ContentBlock{schema.TextBlock(text)}}
}
