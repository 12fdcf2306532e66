package acp

import (
	"strings"
	"testing"
)

// A notice becomes a banner entry; one without a title, or not an object, stays an unknown
// entry with its raw JSON (never decoded as something else).
func TestNoticeIsABannerEntryAndAMalformedOneStaysRaw(t *testing.T) {
	tr := NewTranscript()
	tr.StartTurn(1, "go")
	applyJSON(t, tr, `{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"a"}}`)
	applyJSON(t, tr, `{"sessionUpdate":"notice","severity":"warning","title":"MCP server unavailable","description":"Continuing without it."}`)
	applyJSON(t, tr, `{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"b"}}`)
	applyJSON(t, tr, `{"sessionUpdate":"notice","severity":"info"}`)
	applyJSON(t, tr, `{"sessionUpdate":"notice","title":["not","text"]}`)

	es := tr.Entries()
	kinds := []EntryKind{}
	for _, e := range es {
		kinds = append(kinds, e.Kind)
	}
	want := []EntryKind{KindUser, KindAgent, KindNotice, KindAgent, KindUnknown, KindUnknown}
	if len(kinds) != len(want) {
		t.Fatalf("kinds %v, want %v", kinds, want)
	}
	for i := range want {
		if kinds[i] != want[i] {
			t.Fatalf("kinds %v, want %v (a notice closes the open message)", kinds, want)
		}
	}
	n := es[2].Notice
	if n == nil || n.Severity != "warning" || n.Title != "MCP server unavailable" || n.Description != "Continuing without it." {
		t.Errorf("notice %+v", n)
	}
	if es[4].UpdateKind != "notice" || !strings.Contains(string(es[4].Raw), `"severity":"info"`) {
		t.Errorf("a notice without a title: %+v, want it kept raw", es[4])
	}
	if got := es[2].SearchText(); got != "MCP server unavailable\nContinuing without it." {
		t.Errorf("search text %q", got)
	}
}

// A huge notice is cut: a banner is not a transcript.
func TestNoticeTextIsBounded(t *testing.T) {
	tr := NewTranscript()
	long := strings.Repeat("é", maxNoticeText)
	applyJSON(t, tr, `{"sessionUpdate":"notice","severity":"error","title":"`+long+`"}`)
	n := tr.Entries()[0].Notice
	if len(n.Title) > maxNoticeText || !strings.HasSuffix(n.Title, "…") {
		t.Errorf("title of %d bytes, want at most %d ending in …", len(n.Title), maxNoticeText)
	}
}

// A compaction is one divider, placed by its first update and changed in place by the later
// ones; summary chunks grow its summary, and a summary chunk before any update creates it
// in progress (schema 1.35: "a first-seen ID creates an in-progress compaction").
func TestCompactionIsOneDividerUpsertedByID(t *testing.T) {
	tr := NewTranscript()
	tr.StartTurn(1, "go")
	applyJSON(t, tr, `{"sessionUpdate":"compaction_update","compactionId":"c1","status":"in_progress"}`)
	applyJSON(t, tr, `{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"working"}}`)
	applyJSON(t, tr, `{"sessionUpdate":"compaction_summary_chunk","compactionId":"c1","content":{"type":"text","text":"Kept: "}}`)
	applyJSON(t, tr, `{"sessionUpdate":"compaction_summary_chunk","compactionId":"c1","content":{"type":"text","text":"the plan."}}`)
	applyJSON(t, tr, `{"sessionUpdate":"compaction_update","compactionId":"c1","status":"completed"}`)
	applyJSON(t, tr, `{"sessionUpdate":"compaction_summary_chunk","compactionId":"c2","content":{"type":"text","text":"early"}}`)
	applyJSON(t, tr, `{"sessionUpdate":"compaction_update","compactionId":"c3","status":"failed","error":"context too large","summary":[{"type":"text","text":"x"}]}`)
	applyJSON(t, tr, `{"sessionUpdate":"compaction_update","compactionId":"c3","summary":null}`)
	applyJSON(t, tr, `{"sessionUpdate":"compaction_update","status":"completed"}`)

	es := tr.Entries()
	if len(es) != 6 {
		t.Fatalf("%d entries, want user, c1, agent, c2, c3, unknown: %+v", len(es), es)
	}
	c1 := es[1].Compaction
	if es[1].Kind != KindCompaction || c1.ID != "c1" || c1.Status != "completed" || c1.Summary != "Kept: the plan." {
		t.Errorf("c1 %+v", c1)
	}
	if c2 := es[3].Compaction; c2.ID != "c2" || c2.Status != "in_progress" || c2.Summary != "early" {
		t.Errorf("c2 %+v", c2)
	}
	if c3 := es[4].Compaction; c3.Status != "failed" || c3.Error != "context too large" || c3.Summary != "" {
		t.Errorf("c3 %+v (null clears the summary, absent status leaves it)", c3)
	}
	if es[5].Kind != KindUnknown {
		t.Errorf("a compaction without an id: %+v, want unknown", es[5])
	}
	md := EntryMarkdown(&es[1])
	if !strings.Contains(md, "Context compacted (completed)") || !strings.Contains(md, "Kept: the plan.") {
		t.Errorf("markdown %q", md)
	}
}

// A compaction's divider is kept when a session is restored from its saved entries (Continue,
// Reopen, the history) and a later update of the same compaction changes it in place.
func TestCompactionDividerIsKeptOnReplay(t *testing.T) {
	tr := NewTranscript()
	tr.StartTurn(1, "go")
	applyJSON(t, tr, `{"sessionUpdate":"compaction_update","compactionId":"c1","status":"in_progress"}`)
	restored := RestoreTranscript(tr.Entries())
	applyJSON(t, restored, `{"sessionUpdate":"compaction_update","compactionId":"c1","status":"completed","summary":[{"type":"text","text":"kept"}]}`)
	var dividers []Compaction
	for _, e := range restored.Entries() {
		if e.Kind == KindCompaction {
			dividers = append(dividers, *e.Compaction)
		}
	}
	if len(dividers) != 1 || dividers[0].Status != "completed" || dividers[0].Summary != "kept" {
		t.Fatalf("dividers after the restore %+v, want the one divider completed with its summary", dividers)
	}
}
