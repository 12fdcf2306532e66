package hub

import (
	"agentdesk/backend/acp"
	"agentdesk/backend/agents"
)

// liveMasker masks the secret values the agents' masker knows in a live session's events. The
// hub runs every event of a session through one (maskedEmitter) before anything else sees it:
// the recorder saves what the page is shown, so no secret value the masker knew when it was
// streamed reaches the history in clear. One per session; its methods are called from the
// session's one emitting goroutine, in seq order.
//
// Streamed text arrives in chunks, and a secret may be cut in two: "sk-ab" in one chunk,
// "cdef" in the next. The page would already show the first piece, and the history would
// already hold it, when the second arrives. So while the masker knows any value, the masker
// keeps the text of the message that chunks grow, and when the end of that text and a new
// chunk together hold a value, the chunk is sent as the whole entry instead, masked (an entry
// event replaces the page's copy, and the recorder saves it whole).
//
// Only one message is kept: chunks only ever grow the message that the transcript opened last,
// and opening one is an entry event (acp.Transcript). A chunk for any other entry is masked on
// its own. A value the masker learns while a message streams is caught whole from that
// message's next entry event on.
type liveMasker struct {
	m    *agents.Masker
	open *streamed // the message chunks grow, nil until one is seen while a value is known
}

// streamed is the message chunks grow: the entry as last sent whole, and its unmasked text so
// far (appended in place: a long reply costs no quadratic copying).
type streamed struct {
	session string // whose (the session's, or a subagent's: their entry ids may be the same)
	e       acp.Entry
	text    []byte
}

func newLiveMasker(m *agents.Masker) *liveMasker {
	return &liveMasker{m: m}
}

// event returns ev as the page may see it and the history may save it.
func (l *liveMasker) event(ev acp.Event) acp.Event {
	if l.m.Empty() {
		return ev
	}
	switch ev.Kind {
	case acp.EventEntry:
		switch ev.Entry.Kind {
		case acp.KindUser, acp.KindAgent, acp.KindThought: // the kinds chunks grow
			l.open = &streamed{session: ev.SessionID, e: *ev.Entry, text: []byte(ev.Entry.Text)}
		default:
			if l.open != nil && l.open.e.ID == ev.Entry.ID && l.open.session == ev.SessionID {
				l.open = nil
			}
		}
		return maskEvent(l.m, ev)
	case acp.EventChunk:
		o := l.open
		if o == nil || o.e.ID != ev.EntryID || o.session != ev.SessionID {
			return maskEvent(l.m, ev)
		}
		tail := string(o.text[max(0, len(o.text)-l.m.Longest()+1):])
		o.text = append(o.text, ev.Text...)
		if joined := tail + ev.Text; l.m.Mask(joined) == joined {
			return ev
		}
		whole := o.e
		whole.Text = string(o.text)
		return maskEvent(l.m, acp.Event{SessionID: ev.SessionID, ParentID: ev.ParentID, Seq: ev.Seq, Kind: acp.EventEntry, Entry: &whole})
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

// maskedEmitter passes a session's events on masked (liveMasker). With raw set it hands out
// the unmasked events too: to a sink that masks what it shows itself (the CLI masks its byte
// stream, which also catches a value cut across writes).
type maskedEmitter struct {
	mask *liveMasker
	out  acp.Emitter // gets the masked events
	raw  acp.Emitter // nil, or gets the events as they came
	buf  []acp.Event // EmitBatch's masked copy, reused (one emitting goroutine)
}

// The pump hands batches to an emitter that takes them (acp.EmitAll), so the masked stream keeps
// its batches.
var _ acp.BatchEmitter = (*maskedEmitter)(nil)

// Emit masks ev and passes it on.
func (m *maskedEmitter) Emit(ev acp.Event) {
	m.out.Emit(m.mask.event(ev))
	if m.raw != nil {
		m.raw.Emit(ev)
	}
}

// EmitBatch masks evs and passes them on, as one batch to a sink that takes batches.
func (m *maskedEmitter) EmitBatch(evs []acp.Event) {
	m.buf = m.buf[:0]
	for _, ev := range evs {
		m.buf = append(m.buf, m.mask.event(ev))
	}
	acp.EmitAll(m.out, m.buf)
	clear(m.buf) // keep no events alive until the next batch
	if m.raw != nil {
		acp.EmitAll(m.raw, evs)
	}
}
