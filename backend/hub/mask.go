package hub

import (
	"bytes"
	"encoding/json"
	"strings"

	"agentdesk/backend/acp"
	"agentdesk/backend/agents"
)

// Masking what leaves agentdesk: a live session's state, a search result. Events are masked as
// they stream (livemask.go), the history once for what older versions saved (historymask.go).

// MaskSnapshot returns snap with every secret value m knows masked, in every field (entries'
// text, tool content, errors, stderr). A snapshot that cannot be re-read after masking (it
// always can: the mask is plain text inside JSON strings) is returned with its text fields
// masked only.
func MaskSnapshot(m *agents.Masker, snap acp.Snapshot) acp.Snapshot {
	out, ok := maskJSON(m, snap)
	if !ok {
		for i := range snap.Entries {
			snap.Entries[i].Text = m.Mask(snap.Entries[i].Text)
		}
		return snap
	}
	return out
}

// maskJSON returns v with every secret value m knows masked in all its strings, through its
// JSON: encoded, masked, decoded again (v itself when there was nothing to mask, without
// encoding it when m knows no value). ok is false when the masked JSON could not be decoded,
// which the caller answers by masking the fields it knows.
func maskJSON[T any](m *agents.Masker, v T) (out T, ok bool) {
	if m.Empty() {
		return v, true
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return v, true // nothing was encoded, so nothing can leak through it
	}
	masked := m.MaskBytes(raw)
	if bytes.Equal(masked, raw) {
		return v, true
	}
	if json.Unmarshal(masked, &out) != nil {
		return v, false
	}
	return out, true
}

// MaskSnippet masks a search snippet, whose match markers ([[ ]]) may cut a secret value into
// pieces: when the text without them holds a value, that text is returned masked, unmarked.
func MaskSnippet(m *agents.Masker, snippet string) string {
	plain := strings.NewReplacer("[[", "", "]]", "").Replace(snippet)
	if masked := m.Mask(plain); masked != plain {
		return masked
	}
	return snippet
}
