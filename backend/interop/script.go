package interop

import (
	"encoding/json"
	"strings"
	"sync"
)

// Ask is what a model request asks, reduced to what a script decides on: the last words of the
// person, the result of the tool the model called last (if the request ends with one), and
// whether the agent asks for a turn of its main conversation (it offers tools) or something on
// the side (a title, a summary, a classifier's verdict).
type Ask struct {
	Prompt     string // the last user message's text (without tool results)
	ToolResult string // the last tool result's text when the request ends with one
	ToolError  bool   // that result is an error (Anthropic is_error; Codex a non-zero exit)
	HasResult  bool   // the request ends with a tool result
	Side       bool   // no tools offered: a title, a summary, a classifier
	Model      string
	System     string // the system prompt (Anthropic) or instructions (OpenAI)
}

// Answer is one reply of the model: some text, then at most one tool call. The servers stream it
// the way their API does (text deltas, the tool's input in pieces), with Usage reported at the end.
type Answer struct {
	Text  string
	Tool  string         // the tool to call ("" none): the agent's own name for it (Bash, Write, shell…)
	Input map[string]any // its input (Anthropic) or arguments (OpenAI)
	// Hold, when not nil, is waited on before the reply ends: a reply that stays open until the
	// test says so (or the request is cancelled).
	Hold <-chan struct{}
}

// Script decides each reply. It is called once per model request, from the server's handler
// goroutine; a script that keeps state guards it.
type Script func(Ask) Answer

// Say answers with text alone.
func Say(text string) Answer { return Answer{Text: text} }

// Call answers with a call of tool with input (and no text).
func Call(tool string, input map[string]any) Answer { return Answer{Tool: tool, Input: input} }

// Usage is what every answer reports: fixed, so that a test can check what reaches the receipt.
var Usage = struct{ Input, Output, CacheRead int }{Input: 1200, Output: 34, CacheRead: 100}

// Seen is one HTTP request a server received: method, path and the body (cut at 64 KiB).
type Seen struct {
	Method, Path string
	Body         json.RawMessage
	Ask          Ask
}

// journal keeps every request a server saw, for the test's failure messages and its checks.
type journal struct {
	mu   sync.Mutex
	seen []Seen
}

func (j *journal) add(s Seen) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.seen = append(j.seen, s)
}

// Seen returns the requests so far, in order.
func (j *journal) Seen() []Seen {
	j.mu.Lock()
	defer j.mu.Unlock()
	return append([]Seen(nil), j.seen...)
}

// Summary lists the requests one per line ("POST /v1/messages main: <prompt>"), for a failing
// test's message.
func (j *journal) Summary() string {
	var b strings.Builder
	for _, s := range j.Seen() {
		kind := "main"
		if s.Ask.Side {
			kind = "side"
		}
		b.WriteString(s.Method + " " + s.Path + " " + kind + ": " + clip(s.Ask.Prompt, 80))
		if s.Ask.HasResult {
			b.WriteString(" ← result: " + clip(s.Ask.ToolResult, 80))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func clip(s string, n int) string {
	s = strings.ReplaceAll(s, "\n", "⏎")
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}
