package main

import (
	"agentdesk/backend/acp"
	"agentdesk/backend/agents"
)

// liveMasker masks the secret values the agents' masker knows in a live session's events
// before the page sees them (secrets are never shown back in clear; the saved copy is masked
// by the recorder). One per session; its methods are called from the session's one emitting
// goroutine, in seq order.
//
// Streamed text arrives in chunks, and a secret may be cut in two: "sk-ab" in one chunk,
// "cdef" in the next. The page would already show the first piece when the second arrives. So
// while the masker knows any value, the masker keeps each entry's text as the page has it, and
// when the end of that text and a new chunk together hold a value, the chunk is sent as the
// whole entry instead, masked (an entry event replaces the page's copy).
type liveMasker struct {
	m     *agents.Masker
	texts map[string]*acp.Entry // entry id -> the entry with its unmasked text so far
}

func newLiveMasker(m *agents.Masker) *liveMasker {
	return &liveMasker{m: m, texts: map[string]*acp.Entry{}}
}

// event returns ev as the page may see it.
func (l *liveMasker) event(ev acp.Event) acp.Event {
	if l.m.Empty() {
		if ev.Kind == acp.EventEntry {
			delete(l.texts, ev.Entry.ID) // its text is tracked again only from a next entry event
		}
		return ev
	}
	switch ev.Kind {
	case acp.EventEntry:
		e := *ev.Entry
		l.texts[e.ID] = &e
		return maskEvent(l.m, ev)
	case acp.EventChunk:
		e := l.texts[ev.EntryID]
		if e == nil {
			return maskEvent(l.m, ev)
		}
		tail := e.Text[max(0, len(e.Text)-l.m.Longest()+1):]
		e.Text += ev.Text
		if joined := tail + ev.Text; l.m.Mask(joined) == joined {
			return ev
		}
		whole := *e
		return maskEvent(l.m, acp.Event{SessionID: ev.SessionID, Seq: ev.Seq, Kind: acp.EventEntry, Entry: &whole})
	default:
		return maskEvent(l.m, ev)
	}
}

// maskEvent masks every string of ev (text, titles, tool content, messages).
func maskEvent(m *agents.Masker, ev acp.Event) acp.Event {
	out, ok := maskJSON(m, ev)
	if !ok {
		ev.Text, ev.Message, ev.Title = m.Mask(ev.Text), m.Mask(ev.Message), m.Mask(ev.Title)
		return ev
	}
	return out
}
