package demoagent

import (
	"fmt"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/schema"
)

// compact plays /compact: what real agents send when they compact their context (the unstable
// compaction_update and compaction_summary_chunk kinds, and a notice), so the window's divider
// and banner can be seen offline.
func (s *script) compact() string {
	id := fmt.Sprintf("compact-%d", s.turn)
	steps := []func() bool{
		func() bool {
			return s.update(map[string]any{"sessionUpdate": acp.UpdateCompaction, "compactionId": id, "status": "in_progress"})
		},
		s.pause,
		func() bool {
			return s.update(map[string]any{"sessionUpdate": acp.UpdateCompactionSummaryChunk, "compactionId": id,
				"content": schema.TextBlock(fmt.Sprintf("Kept: the folder %s, the plan, and the open question about NOTES.md. ", s.cwd))})
		},
		func() bool {
			return s.update(map[string]any{"sessionUpdate": acp.UpdateCompactionSummaryChunk, "compactionId": id,
				"content": schema.TextBlock(fmt.Sprintf("Dropped: %d turns of tool output.", max(s.turn-1, 0)))})
		},
		func() bool {
			return s.update(map[string]any{"sessionUpdate": acp.UpdateCompaction, "compactionId": id, "status": "completed"})
		},
		func() bool {
			return s.update(map[string]any{"sessionUpdate": acp.UpdateNotice, "severity": "info",
				"title": "Context compacted", "description": "Earlier turns are summarised; ask again if something is missing."})
		},
		func() bool { return s.stream("agent_message_chunk", "Done: I compacted my context. ") },
	}
	for _, step := range steps {
		if !step() {
			return schema.StopCancelled
		}
	}
	return schema.StopEndTurn
}
