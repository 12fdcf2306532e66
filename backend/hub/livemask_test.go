package hub

import (
	"strings"
	"testing"

	"agentdesk/backend/acp"
	"agentdesk/backend/agents"
)

func TestLiveEventsShowNoSecretEvenOneCutAcrossChunks(t *testing.T) {
	m := agents.NewMasker()
	l := newLiveMasker(m)
	// Before the masker knows a value, events pass as they are.
	if ev := l.event(acp.Event{Kind: acp.EventChunk, EntryID: "x", Text: "sk-live-12345"}); ev.Text != "sk-live-12345" {
		t.Fatalf("with no secret known, the chunk became %q", ev.Text)
	}
	m.Add("sk-live-12345")

	page := map[string]string{} // what the page shows, applying events as its reducer does
	apply := func(ev acp.Event) acp.Event {
		ev = l.event(ev)
		switch ev.Kind {
		case acp.EventEntry:
			page[ev.Entry.ID] = ev.Entry.Text + ev.Entry.Title
		case acp.EventChunk:
			page[ev.EntryID] += ev.Text
		}
		return ev
	}
	apply(acp.Event{Kind: acp.EventEntry, Entry: &acp.Entry{ID: "a1", Kind: acp.KindAgent, Text: "Your key is "}})
	if ev := apply(acp.Event{Kind: acp.EventChunk, EntryID: "a1", Text: "sk-live"}); ev.Kind != acp.EventChunk {
		t.Fatalf("a chunk holding no whole value was sent as %s", ev.Kind)
	}
	ev := apply(acp.Event{Seq: 7, Kind: acp.EventChunk, EntryID: "a1", Text: "-12345, keep it safe."})
	if ev.Kind != acp.EventEntry || ev.Seq != 7 {
		t.Fatalf("the chunk that completes a value went as %s (seq %d), want the whole entry, same seq", ev.Kind, ev.Seq)
	}
	if want := "Your key is " + agents.Mask + ", keep it safe."; page["a1"] != want {
		t.Fatalf("the page shows %q, want %q", page["a1"], want)
	}
	apply(acp.Event{Kind: acp.EventChunk, EntryID: "a1", Text: " Again: sk-live-12345."})
	apply(acp.Event{Kind: acp.EventEntry, Entry: &acp.Entry{ID: "t1", Kind: acp.KindTool, Title: "curl -H 'Bearer sk-live-12345'"}})
	title := apply(acp.Event{Kind: acp.EventPermission, RequestID: "1", ToolCallID: "t1", Title: "Run curl with sk-live-12345?"}).Title
	for where, text := range map[string]string{"the agent's text": page["a1"], "a tool title": page["t1"], "a permission title": title} {
		if strings.Contains(text, "sk-live") || strings.Contains(text, "12345") {
			t.Errorf("%s shows the secret: %q", where, text)
		}
	}
}
