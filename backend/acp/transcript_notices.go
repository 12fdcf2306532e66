package acp

import (
	"encoding/json"
	"strings"

	"agentdesk/backend/acp/schema"
)

// Update kinds that show outside the conversation: notices and context compactions (unstable in
// schema 1.21, stable since 1.35; agents send compaction updates only to a client that advertises
// clientCapabilities.session.compaction, which agentdesk does). They are read only when their
// shape is the expected one; otherwise they stay unknown entries with their raw JSON, as any kind
// we do not know. The journal keeps every one raw either way.
const (
	UpdateNotice                 = "notice"
	UpdateCompaction             = "compaction_update"
	UpdateCompactionSummaryChunk = "compaction_summary_chunk"
)

// Entry kinds of the unstable updates.
const (
	// KindNotice is something the agent wants the person to see outside the conversation (a
	// degraded MCP server, a deprecated setting): shown as a banner in the transcript.
	KindNotice EntryKind = "notice"
	// KindCompaction is where the agent compacted its context: a divider with the summary the
	// agent kept, upserted by compaction id.
	KindCompaction EntryKind = "compaction"
)

// Notice is a notice entry's content (KindNotice). Severity is the agent's word, kept as sent
// (info, warning, error, or anything newer).
type Notice struct {
	Severity    string `json:"severity,omitempty"`
	Title       string `json:"title"`
	Description string `json:"description,omitempty"`
}

// Compaction is a compaction entry's content (KindCompaction). Summary grows with
// compaction_summary_chunk and is replaced by a compaction_update that carries one.
type Compaction struct {
	ID      string `json:"id"`
	Status  string `json:"status,omitempty"` // the agent's: in_progress, completed, failed, cancelled, …
	Summary string `json:"summary,omitempty"`
	Error   string `json:"error,omitempty"`
}

// AddNotice appends a notice of our own (the client's, not the agent's): something about the
// session the person should see in the transcript, such as an MCP server left out.
func (t *Transcript) AddNotice(n Notice) Change {
	t.open = ""
	return t.add(&Entry{Kind: KindNotice, Notice: &n})
}

// maxNoticeText bounds a notice's title and description: a banner is not a transcript.
const maxNoticeText = 4 << 10

// notices reduces a notice or compaction update; ok is false when u is not one of them or its
// shape is not the expected one (the caller keeps it as an unknown entry).
func (t *Transcript) notices(u schema.Update) (Change, bool) {
	switch u.Kind {
	case UpdateNotice:
		var n Notice
		if json.Unmarshal(u.Raw, &n) != nil || strings.TrimSpace(n.Title) == "" {
			return Change{}, false
		}
		n.Title, n.Description = cutText(n.Title, maxNoticeText), cutText(n.Description, maxNoticeText)
		t.open = ""
		return t.add(&Entry{Kind: KindNotice, Notice: &n}), true
	case UpdateCompaction, UpdateCompactionSummaryChunk:
		return t.compaction(u)
	}
	return Change{}, false
}

// compaction upserts the divider of one compaction by its id: its first update places it (at
// the end), later ones change it in place.
func (t *Transcript) compaction(u schema.Update) (Change, bool) {
	var w struct {
		CompactionID string               `json:"compactionId"`
		Status       *string              `json:"status"`
		Summary      json.RawMessage      `json:"summary"`
		Error        *string              `json:"error"`
		Content      *schema.ContentBlock `json:"content"`
	}
	if json.Unmarshal(u.Raw, &w) != nil || w.CompactionID == "" {
		return Change{}, false
	}
	if u.Kind == UpdateCompactionSummaryChunk && w.Content == nil {
		return Change{}, false
	}
	e := t.compactionEntry(w.CompactionID)
	c := e.Compaction
	switch u.Kind {
	case UpdateCompactionSummaryChunk:
		if text, ok := schema.BlockText(*w.Content); ok {
			c.Summary += text
		}
	default:
		if w.Status != nil {
			c.Status = *w.Status
		}
		if w.Error != nil {
			c.Error = *w.Error
		}
		if len(w.Summary) > 0 {
			c.Summary = summaryText(w.Summary)
		}
	}
	out := e.clone()
	return Change{Entry: &out}, true
}

// compactionEntry finds the entry of compaction id, or adds it in progress (a summary chunk may
// come first: the schema has it create an in-progress compaction).
func (t *Transcript) compactionEntry(id string) *Entry {
	if t.compactions == nil {
		t.compactions = map[string]string{}
	}
	if eid, ok := t.compactions[id]; ok {
		return t.entries[t.byID[eid]]
	}
	t.open = ""
	e := t.insert(&Entry{Kind: KindCompaction, Compaction: &Compaction{ID: id, Status: "in_progress"}})
	t.compactions[id] = e.ID
	return e
}

// summaryText joins the text blocks of a compaction summary; null or [] clears it.
func summaryText(raw json.RawMessage) string {
	var blocks []schema.ContentBlock
	if json.Unmarshal(raw, &blocks) != nil {
		return ""
	}
	var b strings.Builder
	for _, blk := range blocks {
		if text, ok := schema.BlockText(blk); ok {
			b.WriteString(text)
		}
	}
	return b.String()
}

// CompactionStatus is a compaction's status as a person reads it (exports, the CLI).
func CompactionStatus(c *Compaction) string {
	if c.Status == "" {
		return "no status yet"
	}
	return c.Status
}
