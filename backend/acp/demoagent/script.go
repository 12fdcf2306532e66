package demoagent

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"agentdesk/backend/acp/schema"
)

// script is one scripted turn. Every step checks for cancellation; run returns the stop reason.
type script struct {
	a       *Agent
	ctx     context.Context
	session string
	settings
	turn        int
	prompt      string
	attachments []string // what the prompt carried besides text, described
	used        int64
}

const noteFile = "NOTES.md"

func (s *script) run() string {
	if strings.HasPrefix(strings.TrimSpace(s.prompt), "/compact") {
		return s.compact()
	}
	if reason, ok := s.elicitTurn(); ok {
		return reason
	}
	if strings.Contains(strings.ToLower(s.prompt), promptSubagents) {
		return s.subagentsTurn()
	}
	base := filepath.Base(s.cwd)
	steps := []func() bool{
		func() bool {
			if !s.thinking {
				return true
			}
			return s.stream("agent_thought_chunk", fmt.Sprintf("The user asked: %q. I'll look at the folder %s first, then propose a small edit and run the checks.", s.prompt, base))
		},
		s.acknowledge,
		func() bool { return s.plan("in_progress", "pending", "pending") },
		s.listFolder,
		func() bool { return s.plan("completed", "in_progress", "pending") },
		func() bool {
			return s.stream("agent_message_chunk", fmt.Sprintf("I had a look at `%s`. To show how edits work, I'd like to add a line to `%s`:\n\n", base, noteFile))
		},
	}
	for _, step := range steps {
		if !step() {
			return schema.StopCancelled
		}
	}
	allowed, ok := s.proposeEdit()
	if !ok {
		return schema.StopCancelled
	}
	verdict := "you **rejected** it, so nothing changed"
	switch {
	case allowed && (s.mode == modeAuto || s.alwaysAllow):
		verdict = "it went ahead **without asking**, as this session's settings say (a demo: nothing was written to disk)"
	case allowed:
		verdict = "you **allowed** it (this is a demo: it was shown, not written to disk)"
	}
	steps = []func() bool{
		func() bool { return s.plan("completed", "completed", "in_progress") },
		s.runChecks,
		func() bool { return s.plan("completed", "completed", "completed") },
		func() bool {
			return s.stream("agent_message_chunk", fmt.Sprintf("Done. Here is what happened:\n\n"+
				"1. I listed the folder `%s`.\n2. I proposed an edit to `%s`, and %s.\n3. The checks passed.\n\n"+
				"```go\nfunc greet(name string) string {\n\treturn \"Hello, \" + name\n}\n```\n\n"+
				"This demo runs offline. Connect a real agent to do real work.", base, noteFile, verdict))
		},
		s.usage,
	}
	for _, step := range steps {
		if !step() {
			return schema.StopCancelled
		}
	}
	return schema.StopEndTurn
}

// pause waits one step, or returns false if the turn was cancelled.
func (s *script) pause() bool {
	if s.a.pace <= 0 {
		return s.ctx.Err() == nil
	}
	t := time.NewTimer(s.a.pace)
	defer t.Stop()
	select {
	case <-s.ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

func (s *script) update(u map[string]any) bool {
	if s.ctx.Err() != nil {
		return false
	}
	err := s.a.conn.Notify(schema.MethodSessionUpdate, map[string]any{"sessionId": s.session, "update": u})
	return err == nil
}

// stream sends text as chunks of a few words each, pausing between them.
func (s *script) stream(kind, text string) bool {
	words := strings.SplitAfter(text, " ")
	for i := 0; i < len(words); i += 3 {
		chunk := strings.Join(words[i:min(i+3, len(words))], "")
		s.used += int64(len(chunk))
		if !s.update(map[string]any{"sessionUpdate": kind, "content": schema.TextBlock(chunk)}) || !s.pause() {
			return false
		}
	}
	return true
}

func (s *script) plan(statuses ...string) bool {
	steps := []string{"Look at the project folder", "Propose an edit to " + noteFile, "Run the checks"}
	entries := make([]schema.PlanEntry, len(steps))
	for i, st := range steps {
		entries[i] = schema.PlanEntry{Content: st, Priority: []string{"high", "medium", "low"}[i], Status: statuses[i]}
	}
	return s.update(map[string]any{"sessionUpdate": "plan", "entries": entries}) && s.pause()
}

func (s *script) toolID(name string) string { return fmt.Sprintf("%s-%d", name, s.turn) }

// listFolder is a read tool call with the folder's real listing (read-only).
func (s *script) listFolder() bool {
	id := s.toolID("list")
	if !s.update(map[string]any{"sessionUpdate": "tool_call", "toolCallId": id, "title": "List " + filepath.Base(s.cwd),
		"kind": "read", "status": "in_progress", "locations": []schema.Location{{Path: s.cwd}},
		"rawInput": map[string]any{"path": s.cwd}}) || !s.pause() {
		return false
	}
	names := []string{}
	if des, err := os.ReadDir(s.cwd); err == nil {
		for _, d := range des {
			n := d.Name()
			if d.IsDir() {
				n += "/"
			}
			names = append(names, n)
		}
	}
	sort.Strings(names)
	if len(names) > 12 {
		names = append(names[:12], fmt.Sprintf("… and %d more", len(names)-12))
	}
	listing := strings.Join(names, "\n")
	if listing == "" {
		listing = "(empty folder)"
	}
	return s.update(map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": id, "status": "completed",
		"content": []any{toolText(listing)}}) && s.pause()
}

// proposeEdit announces an edit with a diff and asks permission; it reports whether the user
// allowed it, and ok=false when the turn was cancelled.
func (s *script) proposeEdit() (allowed, ok bool) {
	id := s.toolID("edit")
	path := filepath.Join(s.cwd, noteFile)
	old := "# Notes\n"
	diff := map[string]any{"type": "diff", "path": path, "oldText": old,
		"newText": old + "\n- Tried the agentdesk demo agent: thoughts, plans, tools and permissions.\n"}
	line := 1
	if !s.update(map[string]any{"sessionUpdate": "tool_call", "toolCallId": id, "title": "Edit " + noteFile,
		"kind": "edit", "status": "pending", "locations": []schema.Location{{Path: path, Line: &line}},
		"content": []any{diff}}) || !s.pause() {
		return false, false
	}
	if s.mode == modeAuto || s.alwaysAllow {
		return true, s.finishEdit(id, diff, true)
	}
	var res schema.RequestPermissionResult
	err := s.a.conn.Call(s.ctx, schema.MethodRequestPermission, map[string]any{
		"sessionId": s.session,
		"toolCall":  map[string]any{"toolCallId": id, "title": "Edit " + noteFile, "kind": "edit"},
		"options": []schema.PermissionOption{
			{OptionID: "allow", Name: "Allow", Kind: schema.AllowOnce},
			{OptionID: "allow-always", Name: "Always allow", Kind: schema.AllowAlways},
			{OptionID: "reject", Name: "Reject", Kind: schema.RejectOnce},
		},
	}, &res)
	if err != nil || res.Outcome.Outcome != "selected" {
		return false, false
	}
	allowed = res.Outcome.OptionID != "reject"
	if res.Outcome.OptionID == "allow-always" {
		s.a.mu.Lock()
		s.a.sessions[s.session].alwaysAllow = true // later turns of this session do not ask again
		s.a.mu.Unlock()
	}
	return allowed, s.finishEdit(id, diff, allowed)
}

// finishEdit reports the outcome of the proposed edit on its tool call.
func (s *script) finishEdit(id string, diff map[string]any, allowed bool) bool {
	status, note := "completed", "Shown, not written: the demo agent never changes files."
	if !allowed {
		status, note = "failed", "Rejected by the user: nothing was changed."
	}
	if !s.update(map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": id, "status": "in_progress"}) || !s.pause() {
		return false
	}
	return s.update(map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": id, "status": status,
		"content": []any{diff, toolText(note)}}) && s.pause()
}

// runChecks is an execute tool call whose terminal-style output grows line by line: in a
// terminal of the client's when it runs them, else as text.
func (s *script) runChecks() bool {
	id := s.toolID("check")
	if !s.update(map[string]any{"sessionUpdate": "tool_call", "toolCallId": id, "title": "Run go test ./...",
		"kind": "execute", "status": "in_progress", "rawInput": map[string]any{"command": "go test ./..."}}) {
		return false
	}
	lines := []string{"$ go test ./...", "ok  \texample.com/app\t0.012s", "ok  \texample.com/app/store\t0.034s", "ok  \texample.com/app/web\t0.021s", "PASS"}
	if ok, ran := s.checksInTerminal(id, lines); ran {
		return ok
	}
	for i := range lines {
		if !s.pause() || !s.update(map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": id,
			"content": []any{toolText(strings.Join(lines[:i+1], "\n"))}}) {
			return false
		}
	}
	return s.update(map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": id, "status": "completed",
		"rawOutput": json.RawMessage(`{"exitCode":0}`)}) && s.pause()
}

// result is the answer to session/prompt: the stop reason and, for a finished turn, token
// counts in ACP's PromptResponse usage shape, derived from what the turn read and wrote (about
// four characters a token), so the same prompt always reports the same figures.
func (s *script) result(reason string) any {
	if reason != schema.StopEndTurn {
		return schema.PromptResult{StopReason: reason}
	}
	in, out := int64(1200+len(s.prompt)/4), s.used/4
	return map[string]any{"stopReason": reason,
		"usage": map[string]int64{"inputTokens": in, "outputTokens": out, "totalTokens": in + out}}
}

func (s *script) usage() bool {
	return s.update(map[string]any{"sessionUpdate": "usage_update", "used": 1200*s.turn + int(s.used), "size": 200000})
}

func toolText(text string) map[string]any {
	return map[string]any{"type": "content", "content": schema.TextBlock(text)}
}
