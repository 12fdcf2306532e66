package interop

import (
	"encoding/json"
	"net/http"
	"strings"
)

// Anthropic is a scripted Anthropic Messages API on 127.0.0.1 (an httptest server): what Claude
// Code talks to when ANTHROPIC_BASE_URL names it. POST /v1/messages answers with the Script's
// reply, streamed as server-sent events when the request asks for a stream (message_start, a
// content block per text or tool_use with its deltas, message_delta with the stop reason and
// usage, message_stop), else as one JSON message; POST /v1/messages/count_tokens answers a count;
// anything else is answered 404 in the API's error shape. Every request is kept (Seen).
type Anthropic struct {
	base
	URL string
}

// NewAnthropic starts the server with script; Close stops it.
func NewAnthropic(script Script) *Anthropic {
	a := &Anthropic{base: base{script: script}}
	a.URL = a.start(a.serve)
	return a
}

// anthropicRequest is what the server reads of a Messages request.
type anthropicRequest struct {
	Model    string            `json:"model"`
	Stream   bool              `json:"stream"`
	System   json.RawMessage   `json:"system"`
	Tools    []json.RawMessage `json:"tools"`
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
}

// anthropicBlock is a content block of a message: text, tool_use or tool_result.
type anthropicBlock struct {
	Type    string          `json:"type"`
	Text    string          `json:"text"`
	Content json.RawMessage `json:"content"` // tool_result: a string or text blocks
	IsError bool            `json:"is_error"`
}

func (a *Anthropic) serve(w http.ResponseWriter, r *http.Request) {
	body, seen := a.read(r)
	switch {
	case r.Method == http.MethodPost && r.URL.Path == "/v1/messages/count_tokens":
		a.add(seen)
		writeJSON(w, map[string]any{"input_tokens": Usage.Input})
	case r.Method == http.MethodPost && r.URL.Path == "/v1/messages":
		req, ask, ok := decodeAsk(&a.base, w, body, seen, `{"type":"error","error":{"type":"invalid_request_error","message":"bad json"}}`, anthropicAsk)
		if !ok {
			return
		}
		answer := a.script(ask)
		if req.Stream {
			a.stream(w, r, req.Model, answer)
		} else {
			a.whole(w, req.Model, answer)
		}
	default:
		a.notFound(w, seen, `{"type":"error","error":{"type":"not_found_error","message":%q}}`)
	}
}

// anthropicAsk reduces a request to what a script decides on.
func anthropicAsk(req anthropicRequest) Ask {
	ask := Ask{Model: req.Model, Side: len(req.Tools) == 0, System: textOf(req.System)}
	for i := len(req.Messages) - 1; i >= 0; i-- {
		m := req.Messages[i]
		if m.Role != "user" {
			continue
		}
		var blocks []anthropicBlock
		if json.Unmarshal(m.Content, &blocks) != nil { // a plain string
			blocks = []anthropicBlock{{Type: "text", Text: textOf(m.Content)}}
		}
		var texts []string
		for _, b := range blocks {
			switch b.Type {
			case "text":
				if !strings.HasPrefix(strings.TrimSpace(b.Text), "<system-reminder>") {
					texts = append(texts, b.Text)
				}
			case "tool_result":
				if i == len(req.Messages)-1 {
					ask.HasResult, ask.ToolResult, ask.ToolError = true, textOf(b.Content), b.IsError
				}
			}
		}
		if len(texts) > 0 {
			ask.Prompt = strings.Join(texts, "\n")
			break
		}
	}
	// Claude Code asks for prompt suggestions after a turn with the tools still offered.
	ask.Side = ask.Side || strings.HasPrefix(ask.Prompt, "[SUGGESTION MODE")
	return ask
}

// textOf is the text of a string or of a list of text blocks.
func textOf(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []anthropicBlock
	_ = json.Unmarshal(raw, &blocks)
	var texts []string
	for _, b := range blocks {
		if b.Type == "text" {
			texts = append(texts, b.Text)
		}
	}
	return strings.Join(texts, "\n")
}

// usage is the answer's usage in the API's words.
func anthropicUsage(output int) map[string]any {
	return map[string]any{"input_tokens": Usage.Input, "output_tokens": output,
		"cache_read_input_tokens": Usage.CacheRead, "cache_creation_input_tokens": 0}
}

// blocks are the answer's content blocks: its text, then its tool call.
func (a *Anthropic) blocks(ans Answer) []map[string]any {
	var out []map[string]any
	if ans.Text != "" {
		out = append(out, map[string]any{"type": "text", "text": ans.Text})
	}
	if ans.Tool != "" {
		out = append(out, map[string]any{"type": "tool_use", "id": a.id("toolu"), "name": ans.Tool, "input": ans.Input})
	}
	return out
}

func stopReason(ans Answer) string {
	if ans.Tool != "" {
		return "tool_use"
	}
	return "end_turn"
}

// whole answers a request that asked for no stream.
func (a *Anthropic) whole(w http.ResponseWriter, model string, ans Answer) {
	writeJSON(w, map[string]any{"id": a.id("msg"), "type": "message", "role": "assistant", "model": model,
		"content": a.blocks(ans), "stop_reason": stopReason(ans), "stop_sequence": nil, "usage": anthropicUsage(Usage.Output)})
}

// stream answers as server-sent events, the tool's input in two input_json_delta pieces.
func (a *Anthropic) stream(w http.ResponseWriter, r *http.Request, model string, ans Answer) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	ev := newSSE(w)
	ev.send("message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": a.id("msg"), "type": "message", "role": "assistant", "model": model,
		"content": []any{}, "stop_reason": nil, "stop_sequence": nil, "usage": anthropicUsage(1)}})
	for i, b := range a.blocks(ans) {
		switch b["type"] {
		case "text":
			ev.send("content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": map[string]any{"type": "text", "text": ""}})
			for _, piece := range halves(ans.Text) {
				ev.send("content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": map[string]any{"type": "text_delta", "text": piece}})
			}
		case "tool_use":
			ev.send("content_block_start", map[string]any{"type": "content_block_start", "index": i,
				"content_block": map[string]any{"type": "tool_use", "id": b["id"], "name": b["name"], "input": map[string]any{}}})
			input, _ := json.Marshal(ans.Input)
			for _, piece := range halves(string(input)) {
				ev.send("content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": map[string]any{"type": "input_json_delta", "partial_json": piece}})
			}
		}
		ev.send("content_block_stop", map[string]any{"type": "content_block_stop", "index": i})
	}
	if ans.Hold != nil {
		select {
		case <-ans.Hold:
		case <-r.Context().Done():
			return
		}
	}
	ev.send("message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stopReason(ans), "stop_sequence": nil},
		"usage": map[string]any{"output_tokens": Usage.Output}})
	ev.send("message_stop", map[string]any{"type": "message_stop"})
}
