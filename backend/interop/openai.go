package interop

import (
	"encoding/json"
	"net/http"
	"strings"
)

// OpenAI is a scripted OpenAI Responses API on 127.0.0.1 (an httptest server): what Codex talks
// to through a model provider whose base_url names it (wire_api = "responses"). POST
// <base>/responses streams the Script's reply as server-sent events (response.created, an output
// item per message or function call with its deltas and its done event, response.completed with
// usage); GET <base>/models lists one model; anything else is answered 404. Every request is kept
// (Seen).
type OpenAI struct {
	base
	URL string // the base URL (…/v1) a provider's base_url names
}

// NewOpenAI starts the server with script; Close stops it.
func NewOpenAI(script Script) *OpenAI {
	o := &OpenAI{base: base{script: script}}
	o.URL = o.start(o.serve) + "/v1"
	return o
}

// openaiRequest is what the server reads of a Responses request.
type openaiRequest struct {
	Model        string            `json:"model"`
	Instructions string            `json:"instructions"`
	Tools        []json.RawMessage `json:"tools"`
	Input        []openaiItem      `json:"input"`
}

// openaiItem is an input item: a message, a function call, or its output.
type openaiItem struct {
	Type    string          `json:"type"`
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
	Output  json.RawMessage `json:"output"`
}

func (o *OpenAI) serve(w http.ResponseWriter, r *http.Request) {
	body, seen := o.read(r)
	switch {
	case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/responses"):
		req, ask, ok := decodeAsk(&o.base, w, body, seen, `{"error":{"message":"bad json","type":"invalid_request_error"}}`, openaiAsk)
		if !ok {
			return
		}
		o.stream(w, r, req.Model, o.script(ask))
	case r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/models"):
		o.add(seen)
		writeJSON(w, map[string]any{"object": "list", "data": []any{map[string]any{"id": "scripted", "object": "model", "owned_by": "agentdesk"}}})
	default:
		o.notFound(w, seen, `{"error":{"message":%q,"type":"not_found"}}`)
	}
}

// openaiAsk reduces a request to what a script decides on.
func openaiAsk(req openaiRequest) Ask {
	ask := Ask{Model: req.Model, Side: len(req.Tools) == 0, System: req.Instructions}
	if n := len(req.Input); n > 0 && strings.HasSuffix(req.Input[n-1].Type, "_call_output") {
		ask.HasResult, ask.ToolResult = true, outputText(req.Input[n-1].Output)
	}
	for i := len(req.Input) - 1; i >= 0; i-- {
		it := req.Input[i]
		if it.Type != "message" || it.Role != "user" {
			continue
		}
		text := contentText(it.Content)
		if text == "" || strings.HasPrefix(strings.TrimSpace(text), "<environment_context>") ||
			strings.HasPrefix(strings.TrimSpace(text), "<user_instructions>") || strings.HasPrefix(strings.TrimSpace(text), "# AGENTS.md") {
			continue
		}
		ask.Prompt = text
		break
	}
	return ask
}

// contentText is the text of a message's content: a string or input_text/output_text parts.
func contentText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Type, Text string
	}
	_ = json.Unmarshal(raw, &parts)
	var texts []string
	for _, p := range parts {
		if strings.HasSuffix(p.Type, "_text") {
			texts = append(texts, p.Text)
		}
	}
	return strings.Join(texts, "\n")
}

// outputText is a function call's output: a string, or content parts.
func outputText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	if t := contentText(raw); t != "" {
		return t
	}
	return string(raw)
}

// stream answers as server-sent events.
func (o *OpenAI) stream(w http.ResponseWriter, r *http.Request, model string, ans Answer) {
	w.Header().Set("Content-Type", "text/event-stream")
	ev := newSSE(w)
	id := o.id("resp")
	send := func(typ string, fields map[string]any) {
		fields["type"] = typ
		ev.send(typ, fields)
	}
	send("response.created", map[string]any{"response": map[string]any{"id": id, "object": "response", "status": "in_progress", "model": model, "output": []any{}}})
	var output []any
	if ans.Text != "" {
		msgID := o.id("msg")
		idx := len(output)
		send("response.output_item.added", map[string]any{"output_index": idx, "item": map[string]any{"type": "message", "id": msgID, "role": "assistant", "status": "in_progress", "content": []any{}}})
		send("response.content_part.added", map[string]any{"output_index": idx, "item_id": msgID, "content_index": 0, "part": map[string]any{"type": "output_text", "text": ""}})
		for _, piece := range halves(ans.Text) {
			send("response.output_text.delta", map[string]any{"output_index": idx, "item_id": msgID, "content_index": 0, "delta": piece})
		}
		item := map[string]any{"type": "message", "id": msgID, "role": "assistant", "status": "completed",
			"content": []any{map[string]any{"type": "output_text", "text": ans.Text, "annotations": []any{}}}}
		send("response.output_item.done", map[string]any{"output_index": idx, "item": item})
		output = append(output, item)
	}
	if ans.Tool != "" {
		callID := o.id("call")
		itemID := o.id("fc")
		args, _ := json.Marshal(ans.Input)
		idx := len(output)
		send("response.output_item.added", map[string]any{"output_index": idx, "item": map[string]any{"type": "function_call", "id": itemID, "call_id": callID, "name": ans.Tool, "arguments": "", "status": "in_progress"}})
		for _, piece := range halves(string(args)) {
			send("response.function_call_arguments.delta", map[string]any{"output_index": idx, "item_id": itemID, "delta": piece})
		}
		item := map[string]any{"type": "function_call", "id": itemID, "call_id": callID, "name": ans.Tool, "arguments": string(args), "status": "completed"}
		send("response.output_item.done", map[string]any{"output_index": idx, "item": item})
		output = append(output, item)
	}
	if ans.Hold != nil {
		select {
		case <-ans.Hold:
		case <-r.Context().Done():
			return
		}
	}
	send("response.completed", map[string]any{"response": map[string]any{"id": id, "object": "response", "status": "completed", "model": model, "output": output,
		"usage": map[string]any{"input_tokens": Usage.Input, "input_tokens_details": map[string]any{"cached_tokens": Usage.CacheRead},
			"output_tokens": Usage.Output, "output_tokens_details": map[string]any{"reasoning_tokens": 0}, "total_tokens": Usage.Input + Usage.Output}}})
}
