package interop

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// ChatCompletions is a scripted OpenAI-compatible Chat Completions API on 127.0.0.1 (an
// httptest server): what opencode talks to through a custom provider whose options.baseURL
// names it (@ai-sdk/openai-compatible). POST <base>/chat/completions answers with the Script's
// reply, streamed as server-sent chunks when the request asks for a stream (the text in deltas,
// the tool call's arguments in pieces, a chunk with the finish reason, one with usage, then
// [DONE]), else as one completion; GET <base>/models lists one model; anything else is answered
// 404. Every request is kept (Seen).
type ChatCompletions struct {
	base
	URL string // the base URL (…/v1) a provider's baseURL names
}

// NewChatCompletions starts the server with script; Close stops it.
func NewChatCompletions(script Script) *ChatCompletions {
	c := &ChatCompletions{base: base{script: script}}
	c.URL = c.start(c.serve) + "/v1"
	return c
}

// chatRequest is what the server reads of a Chat Completions request.
type chatRequest struct {
	Model    string            `json:"model"`
	Stream   bool              `json:"stream"`
	Tools    []json.RawMessage `json:"tools"`
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
}

func (c *ChatCompletions) serve(w http.ResponseWriter, r *http.Request) {
	body, seen := c.read(r)
	switch {
	case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/chat/completions"):
		req, ask, ok := decodeAsk(&c.base, w, body, seen, `{"error":{"message":"bad json","type":"invalid_request_error"}}`, chatAsk)
		if !ok {
			return
		}
		answer := c.script(ask)
		if req.Stream {
			c.stream(w, r, req.Model, answer)
		} else {
			c.whole(w, req.Model, answer)
		}
	case r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/models"):
		c.add(seen)
		writeJSON(w, map[string]any{"object": "list", "data": []any{map[string]any{"id": "scripted", "object": "model", "owned_by": "agentdesk"}}})
	default:
		c.notFound(w, seen, `{"error":{"message":%q,"type":"not_found"}}`)
	}
}

// chatAsk reduces a request to what a script decides on.
func chatAsk(req chatRequest) Ask {
	ask := Ask{Model: req.Model, Side: len(req.Tools) == 0}
	if n := len(req.Messages); n > 0 && req.Messages[n-1].Role == "tool" {
		ask.HasResult, ask.ToolResult = true, chatText(req.Messages[n-1].Content)
	}
	for i := len(req.Messages) - 1; i >= 0; i-- {
		m := req.Messages[i]
		switch m.Role {
		case "system":
			if ask.System == "" {
				ask.System = chatText(m.Content)
			}
		case "user":
			if ask.Prompt == "" {
				ask.Prompt = chatText(m.Content)
			}
		}
	}
	return ask
}

// chatText is the text of a message's content: a string or text parts.
func chatText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct{ Type, Text string }
	_ = json.Unmarshal(raw, &parts)
	var texts []string
	for _, p := range parts {
		if p.Type == "text" {
			texts = append(texts, p.Text)
		}
	}
	return strings.Join(texts, "\n")
}

// chatUsage is the answer's usage in the API's words.
func chatUsage() map[string]any {
	return map[string]any{"prompt_tokens": Usage.Input, "completion_tokens": Usage.Output, "total_tokens": Usage.Input + Usage.Output,
		"prompt_tokens_details": map[string]any{"cached_tokens": Usage.CacheRead}}
}

func finishReason(ans Answer) string {
	if ans.Tool != "" {
		return "tool_calls"
	}
	return "stop"
}

// whole answers a request that asked for no stream.
func (c *ChatCompletions) whole(w http.ResponseWriter, model string, ans Answer) {
	msg := map[string]any{"role": "assistant", "content": ans.Text}
	if ans.Tool != "" {
		args, _ := json.Marshal(ans.Input)
		msg["tool_calls"] = []any{map[string]any{"id": c.id("call"), "type": "function",
			"function": map[string]any{"name": ans.Tool, "arguments": string(args)}}}
	}
	writeJSON(w, map[string]any{"id": c.id("chatcmpl"), "object": "chat.completion", "model": model,
		"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finishReason(ans)}}, "usage": chatUsage()})
}

// stream answers as server-sent chunks.
func (c *ChatCompletions) stream(w http.ResponseWriter, r *http.Request, model string, ans Answer) {
	w.Header().Set("Content-Type", "text/event-stream")
	ev := newSSE(w)
	id := c.id("chatcmpl")
	chunk := func(delta map[string]any, finish any) map[string]any {
		return map[string]any{"id": id, "object": "chat.completion.chunk", "model": model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}
	}
	ev.send("", chunk(map[string]any{"role": "assistant", "content": ""}, nil))
	if ans.Text != "" {
		for _, piece := range halves(ans.Text) {
			ev.send("", chunk(map[string]any{"content": piece}, nil))
		}
	}
	if ans.Tool != "" {
		args, _ := json.Marshal(ans.Input)
		for i, piece := range halves(string(args)) {
			call := map[string]any{"index": 0, "function": map[string]any{"arguments": piece}}
			if i == 0 {
				call["id"], call["type"] = c.id("call"), "function"
				call["function"] = map[string]any{"name": ans.Tool, "arguments": piece}
			}
			ev.send("", chunk(map[string]any{"tool_calls": []any{call}}, nil))
		}
	}
	if ans.Hold != nil {
		select {
		case <-ans.Hold:
		case <-r.Context().Done():
			return
		}
	}
	ev.send("", chunk(map[string]any{}, finishReason(ans)))
	ev.send("", map[string]any{"id": id, "object": "chat.completion.chunk", "model": model, "choices": []any{}, "usage": chatUsage()})
	fmt.Fprint(w, "data: [DONE]\n\n")
	if ev.f != nil {
		ev.f.Flush()
	}
}
