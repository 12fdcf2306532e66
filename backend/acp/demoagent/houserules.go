package demoagent

import (
	"fmt"
	"strings"

	"agentdesk/backend/acp/schema"
)

// systemPromptText is the text of a client system prompt (ACP systemPrompt; the Demo agent
// advertises it in append mode), "" for none.
func systemPromptText(p *schema.SystemPrompt) string {
	if p == nil {
		return ""
	}
	var b strings.Builder
	for _, c := range p.Content {
		if c.Type == "text" {
			b.WriteString(c.Text)
		}
	}
	return strings.TrimSpace(b.String())
}

// followHouseRules says, on the first turn of a session given house rules, that it has them and
// what the first of them says: the window's house rules can be seen to arrive.
func (s *script) followHouseRules() bool {
	if s.houseRules == "" || s.turn != 1 {
		return true
	}
	first, _, _ := strings.Cut(s.houseRules, "\n")
	if len(first) > 120 {
		first = first[:120] + "…"
	}
	return s.stream("agent_message_chunk", fmt.Sprintf("I was given your house rules for this folder; the first says: %q.\n\n", first))
}
