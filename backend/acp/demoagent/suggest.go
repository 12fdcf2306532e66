package demoagent

// suggestNext ends a full turn with two predicted next prompts, sent as claude-agent-acp sends
// them (_claude/sdkMessage, type prompt_suggestion: no ACP update carries them yet), so that the
// window's suggestion chips can be seen offline.
func (s *script) suggestNext() bool {
	for _, text := range []string{"Write that line to " + noteFile + " for real", "Explain what the checks ran"} {
		if s.ctx.Err() != nil {
			return false
		}
		msg := map[string]any{"type": "prompt_suggestion", "suggestion": text, "session_id": s.session}
		if s.a.conn.Notify("_claude/sdkMessage", map[string]any{"sessionId": s.session, "message": msg}) != nil {
			return false
		}
	}
	return true
}
