package demoagent

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/schema"
)

// promptSubagents makes the demo delegate to two subagents (ACP subagent sessions), when the
// client advertised clientCapabilities.subagents.
const promptSubagents = "subagent"

// subagentSteps is how many steps the first subagent works before it reports back: long enough
// (at the default pace, about 12 s) for a person or a test to cancel it; the second is quick.
const subagentSteps = 120

// subagentsTurn plays "use subagents": it announces two children on its session, "Explore" (which
// the client may cancel, and which works until it is done or cancelled) and "Review" (which reads
// one file and reports), streams each child's own messages and tool calls under the child's id,
// reports their state on the parent, then sums up. A cancelled child stops alone; Stop stops all.
func (s *script) subagentsTurn() string {
	if !s.a.subagentsOK() {
		return s.say("I would delegate to subagents, but this client does not show subagent sessions.")
	}
	base := filepath.Base(s.cwd)
	kids := []struct {
		id, title, description string
		steps                  int
	}{
		{fmt.Sprintf("%s-explore-%d", s.session, s.turn), "Explore " + base, "Look around the folder and report what is in it", subagentSteps},
		{fmt.Sprintf("%s-review-%d", s.session, s.turn), "Review " + noteFile, "Read " + noteFile + " and say what to change", 3},
	}
	if !s.stream("agent_message_chunk", "I'll hand this to two subagents and sum up what they find. ") {
		return schema.StopCancelled
	}
	results := make([]string, len(kids))
	var wg sync.WaitGroup
	for i, k := range kids {
		ctx, cancel := context.WithCancel(s.ctx)
		s.a.mu.Lock()
		s.a.cancels[k.id] = cancel
		s.a.mu.Unlock()
		if !s.update(map[string]any{"sessionUpdate": acp.UpdateSubagent, "sessionId": k.id, "title": k.title,
			"description": k.description, "capabilities": map[string]any{"cancel": map[string]any{}},
			"state": map[string]any{"state": acp.SubagentRunning}}) {
			cancel()
			return schema.StopCancelled
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer cancel()
			child := &script{a: s.a, ctx: ctx, session: k.id, settings: s.settings, turn: s.turn, prompt: k.description}
			reason := child.subagentWork(k.steps)
			s.a.mu.Lock()
			delete(s.a.cancels, k.id)
			s.a.mu.Unlock()
			results[i] = fmt.Sprintf("- **%s**: %s", k.title, map[string]string{schema.StopEndTurn: "done", schema.StopCancelled: "cancelled"}[reason])
			// The state is reported on the parent, whatever happened to the child's own context.
			_ = s.a.conn.Notify(schema.MethodSessionUpdate, map[string]any{"sessionId": s.session, "update": map[string]any{
				"sessionUpdate": acp.UpdateSubagent, "sessionId": k.id, "state": map[string]any{"state": acp.SubagentIdle, "stopReason": reason}}})
		}()
	}
	wg.Wait()
	if !s.stream("agent_message_chunk", "The subagents reported back:\n\n"+strings.Join(results, "\n")+"\n") {
		return schema.StopCancelled
	}
	return schema.StopEndTurn
}

// subagentWork is one child's work, on its own session id: a message, a read of the folder, then
// steps of progress until done; the stop reason is cancelled when its context ended.
func (s *script) subagentWork(steps int) string {
	if !s.stream("agent_message_chunk", s.prompt+". ") || !s.listFolder() {
		return schema.StopCancelled
	}
	for i := range steps {
		if !s.pause() {
			return schema.StopCancelled
		}
		if (i+1)%20 == 0 && !s.stream("agent_message_chunk", fmt.Sprintf("Still looking (%d of %d). ", i+1, steps)) {
			return schema.StopCancelled
		}
	}
	if !s.stream("agent_message_chunk", "Done: nothing surprising here.") {
		return schema.StopCancelled
	}
	return schema.StopEndTurn
}

// subagentsOK reports whether the client advertised subagent sessions.
func (a *Agent) subagentsOK() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.subagents
}
