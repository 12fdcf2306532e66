package interop

import (
	"encoding/json"
	"net/http"
	"strings"
)

// Gemini is a scripted Gemini API (generativelanguage v1beta) on 127.0.0.1 (an httptest
// server): what Gemini CLI talks to when GOOGLE_GEMINI_BASE_URL names it. POST
// /v1beta/models/MODEL:streamGenerateContent streams the Script's reply as server-sent events
// (a chunk per text half, one with the function call, the last with finishReason and
// usageMetadata); :generateContent answers the same as one response; :countTokens answers a
// count; anything else is answered 404 in the API's error shape. Every request is kept (Seen).
type Gemini struct {
	base
	URL string // the base URL GOOGLE_GEMINI_BASE_URL names
}

// NewGemini starts the server with script; Close stops it.
func NewGemini(script Script) *Gemini {
	g := &Gemini{base: base{script: script}}
	g.URL = g.start(g.serve)
	return g
}

// geminiRequest is what the server reads of a generateContent request.
type geminiRequest struct {
	Contents          []geminiContent   `json:"contents"`
	SystemInstruction *geminiContent    `json:"systemInstruction"`
	Tools             []json.RawMessage `json:"tools"`
	GenerationConfig  struct {
		ResponseMimeType string `json:"responseMimeType"`
	} `json:"generationConfig"`
}

// geminiContent is one turn of the conversation: its role (user or model) and its parts.
type geminiContent struct {
	Role  string `json:"role"`
	Parts []struct {
		Text             string `json:"text"`
		Thought          bool   `json:"thought"`
		FunctionResponse *struct {
			Name     string                     `json:"name"`
			Response map[string]json.RawMessage `json:"response"`
		} `json:"functionResponse"`
	} `json:"parts"`
}

func (g *Gemini) serve(w http.ResponseWriter, r *http.Request) {
	body, seen := g.read(r)
	model, method, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/v1beta/models/"), ":")
	if r.Method != http.MethodPost || !strings.HasPrefix(r.URL.Path, "/v1beta/models/") {
		method = ""
	}
	switch method {
	case "countTokens":
		g.add(seen)
		writeJSON(w, map[string]any{"totalTokens": Usage.Input})
	case "generateContent", "streamGenerateContent":
		req, ask, ok := decodeAsk(&g.base, w, body, seen, `{"error":{"code":400,"message":"bad json","status":"INVALID_ARGUMENT"}}`, func(q geminiRequest) Ask { return geminiAsk(q, model) })
		if !ok {
			return
		}
		answer := g.script(ask)
		if ask.Side && req.GenerationConfig.ResponseMimeType == "application/json" {
			// A side question that wants JSON (the next-speaker check, a router): the
			// person speaks next, so the turn ends where the script ended it.
			answer = Say(`{"reasoning":"scripted","next_speaker":"user"}`)
		}
		if method == "streamGenerateContent" {
			g.stream(w, r, model, answer)
		} else {
			writeJSON(w, g.chunk(model, g.parts(answer), true))
		}
	default:
		g.notFound(w, seen, `{"error":{"code":404,"message":%q,"status":"NOT_FOUND"}}`)
	}
}

// geminiAsk reduces a request to what a script decides on.
func geminiAsk(req geminiRequest, model string) Ask {
	ask := Ask{Model: model, Side: len(req.Tools) == 0}
	if req.SystemInstruction != nil {
		for _, p := range req.SystemInstruction.Parts {
			ask.System += p.Text
		}
	}
	for i := len(req.Contents) - 1; i >= 0; i-- {
		c := req.Contents[i]
		if c.Role != "user" {
			continue
		}
		var texts []string
		for _, p := range c.Parts {
			switch {
			case p.FunctionResponse != nil && i == len(req.Contents)-1:
				ask.HasResult = true
				if raw, ok := p.FunctionResponse.Response["error"]; ok {
					ask.ToolError, ask.ToolResult = true, stringOr(raw)
				} else {
					ask.ToolResult = stringOr(p.FunctionResponse.Response["output"])
				}
			case p.Text != "" && !p.Thought && !strings.HasPrefix(strings.TrimSpace(p.Text), "<session_context>"):
				texts = append(texts, p.Text)
			}
		}
		if len(texts) > 0 {
			ask.Prompt = strings.Join(texts, "\n")
			break
		}
	}
	return ask
}

// stringOr is raw as a string when it is one, else raw's JSON.
func stringOr(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}

// parts are the answer's parts: its text, then its function call.
func (g *Gemini) parts(ans Answer) []map[string]any {
	var out []map[string]any
	if ans.Text != "" {
		out = append(out, map[string]any{"text": ans.Text})
	}
	if ans.Tool != "" {
		out = append(out, map[string]any{"functionCall": map[string]any{
			"id": g.id("call"), "name": ans.Tool, "args": ans.Input}})
	}
	return out
}

// chunk is a GenerateContentResponse with parts; the last one has the finish reason and usage.
func (g *Gemini) chunk(model string, parts []map[string]any, last bool) map[string]any {
	cand := map[string]any{"index": 0, "content": map[string]any{"role": "model", "parts": parts}}
	resp := map[string]any{"candidates": []any{cand}, "modelVersion": model, "responseId": g.id("resp")}
	if last {
		cand["finishReason"] = "STOP"
		resp["usageMetadata"] = map[string]any{"promptTokenCount": Usage.Input, "candidatesTokenCount": Usage.Output,
			"cachedContentTokenCount": Usage.CacheRead, "totalTokenCount": Usage.Input + Usage.Output}
	}
	return resp
}

// stream answers as server-sent events (alt=sse): the text in two chunks, the call in one, an
// empty last chunk with the finish reason.
func (g *Gemini) stream(w http.ResponseWriter, r *http.Request, model string, ans Answer) {
	w.Header().Set("Content-Type", "text/event-stream")
	ev := newSSE(w)
	if ans.Text != "" {
		for _, piece := range halves(ans.Text) {
			ev.send("", g.chunk(model, []map[string]any{{"text": piece}}, false))
		}
	}
	if ans.Tool != "" {
		ev.send("", g.chunk(model, g.parts(Answer{Tool: ans.Tool, Input: ans.Input}), false))
	}
	if ans.Hold != nil {
		select {
		case <-ans.Hold:
		case <-r.Context().Done():
			return
		}
	}
	ev.send("", g.chunk(model, []map[string]any{{"text": ""}}, true))
}
