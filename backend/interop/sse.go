package interop

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// sse writes server-sent events, each flushed at once so that the agent sees a stream.
type sse struct {
	w http.ResponseWriter
	f http.Flusher
}

func newSSE(w http.ResponseWriter) *sse {
	f, _ := w.(http.Flusher)
	w.WriteHeader(http.StatusOK)
	return &sse{w: w, f: f}
}

// send writes one event named event (none when "") with data as its JSON.
func (s *sse) send(event string, data any) {
	raw, _ := json.Marshal(data)
	if event != "" {
		fmt.Fprintf(s.w, "event: %s\n", event)
	}
	fmt.Fprintf(s.w, "data: %s\n\n", raw)
	if s.f != nil {
		s.f.Flush()
	}
}

// writeJSON answers 200 with v as JSON.
func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// halves cuts s in two (on a rune boundary), so that every reply arrives in more than one delta.
func halves(s string) []string {
	r := []rune(s)
	if len(r) < 2 {
		return []string{s}
	}
	return []string{string(r[:len(r)/2]), string(r[len(r)/2:])}
}

// cut keeps the first 64 KiB of a body for the journal.
func cut(body []byte) json.RawMessage {
	if len(body) > 64<<10 {
		body = body[:64<<10]
	}
	if !json.Valid(body) {
		raw, _ := json.Marshal(string(body))
		return raw
	}
	return append(json.RawMessage(nil), body...)
}
