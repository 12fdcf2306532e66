package acp_test

import (
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"agentdesk/backend/acp"
)

// TestElicitAnswerRacesStop: a person's accept and Stop race; exactly one answers the agent,
// and the entry says which.
func TestElicitAnswerRacesStop(t *testing.T) {
	s, ev, j := promptElicit(t, acp.ElicitAll(), `
 {"call":"elicitation/create","id":1,"params":{"mode":"form","message":"Q","requestedSchema":{"properties":{"a":{"type":"boolean"}}}},"want":"\"action\":\""},
 {"reply":{"stopReason":"cancelled"}}`)
	el := elicitIn(t, ev, acp.ElicitOpen)
	var wg sync.WaitGroup
	var answerErr error
	wg.Add(2)
	go func() {
		defer wg.Done()
		answerErr = s.AnswerElicitation(el.RequestID, acp.ElicitAccept, map[string]any{"a": true})
	}()
	go func() {
		defer wg.Done()
		_ = s.Stop()
	}()
	wg.Wait()
	ev.waitFor(t, "turn_end", kind(acp.EventTurnEnd))
	var final *acp.Elicitation
	for _, e := range s.Snapshot().Entries {
		if e.Kind == acp.KindElicitation {
			final = e.Elicitation
		}
	}
	switch {
	case answerErr == nil && final.State == acp.ElicitAccepted && strings.Contains(j.text(), `"result":{"action":"accept"`):
	case errors.Is(answerErr, acp.ErrElicitationNotOpen) && final.State == acp.ElicitCancelled &&
		final.AnsweredBy == acp.AnsweredByCancel && strings.Contains(j.text(), `"result":{"action":"cancel"}`):
	default:
		t.Fatalf("answer %v, final %+v\n%s", answerErr, final, j.text())
	}
	if n := strings.Count(j.text(), `"id":1,"result"`); n != 1 {
		t.Fatalf("the request was answered %d times", n)
	}
}

func TestElicitWithdrawnExitAndWrongSession(t *testing.T) {
	_, ev, j := promptElicit(t, acp.ElicitAll(), `
 {"call":"elicitation/create","params":{"sessionId":"other","mode":"form","message":"Q","requestedSchema":{"properties":{}}},"want":"is not this session"},
 {"send":{"jsonrpc":"2.0","id":"w","method":"elicitation/create","params":{"sessionId":"sc1","mode":"form","message":"Withdrawn","requestedSchema":{"properties":{}}}}},
 {"send":{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":"w"}}},
 {"send":{"jsonrpc":"2.0","id":"x","method":"elicitation/create","params":{"sessionId":"sc1","mode":"url","message":"Left open","url":"https://example.com","elicitationId":"x1"}}},
 {"exit":1,"stderr":"gone"}`)
	if got := elicitIn(t, ev, acp.ElicitInvalid); !strings.Contains(got.Error, `"other"`) {
		t.Fatalf("wrong session: %+v", got)
	}
	elicitIn(t, ev, acp.ElicitOpen)
	if got := elicitIn(t, ev, acp.ElicitCancelled); got.AnsweredBy != acp.AnsweredByAgent || got.RequestID != `"w"` {
		t.Fatalf("withdrawn: %+v", got)
	}
	elicitIn(t, ev, acp.ElicitOpen)
	if got := elicitIn(t, ev, acp.ElicitCancelled); got.AnsweredBy != acp.AnsweredByCancel || got.RequestID != `"x"` {
		t.Fatalf("left open when the agent exited: %+v", got)
	}
	ev.waitFor(t, "turn_end", kind(acp.EventTurnEnd))
	if !strings.Contains(j.text(), `"id":"w","result":{"action":"cancel"}`) {
		t.Fatalf("the withdrawn request was not answered cancel:\n%s", j.text())
	}
}

func TestRestoreTranscriptSettlesOpenElicitations(t *testing.T) {
	open := acp.Entry{ID: "elicitation-7", Kind: acp.KindElicitation, Turn: 1,
		Elicitation: &acp.Elicitation{RequestID: "7", Mode: acp.ElicitModeForm, Message: "Q", State: acp.ElicitOpen}}
	done := acp.Entry{ID: "elicitation-8", Kind: acp.KindElicitation, Turn: 1,
		Elicitation: &acp.Elicitation{RequestID: "8", Mode: acp.ElicitModeForm, Message: "Q", State: acp.ElicitDeclined, AnsweredBy: acp.AnsweredByUser}}
	tr := acp.RestoreTranscript([]acp.Entry{{ID: "e1", Kind: acp.KindUser, Turn: 1, Text: "hi"}, open, done})
	got := tr.Entries()
	if el := got[1].Elicitation; el.State != acp.ElicitCancelled || el.AnsweredBy != acp.AnsweredByCancel {
		t.Fatalf("an open elicitation restored as %+v", el)
	}
	if el := got[2].Elicitation; el.State != acp.ElicitDeclined || el.AnsweredBy != acp.AnsweredByUser {
		t.Fatalf("a declined elicitation restored as %+v", el)
	}
	if open.Elicitation.State != acp.ElicitOpen {
		t.Fatal("RestoreTranscript changed the caller's entry")
	}
	// A new entry after a restore never reuses a saved id.
	if c := tr.AddElicitation(acp.Elicitation{RequestID: "7", State: acp.ElicitOpen}); c.Entry.ID != "elicitation-7-2" {
		t.Fatalf("new id %q", c.Entry.ID)
	}
}

// A form saved before entries carried their parsed fields gets them when it is restored or
// read back from the store, so the window renders every form from Fields alone.
func TestSavedElicitationGetsItsFields(t *testing.T) {
	old := acp.Entry{ID: "elicitation-9", Kind: acp.KindElicitation, Turn: 1,
		Elicitation: &acp.Elicitation{RequestID: "9", Mode: acp.ElicitModeForm, Message: "Q", State: acp.ElicitAccepted,
			Schema: json.RawMessage(`{"properties":{"pin":{"type":"string","writeOnly":true}}}`), Answer: map[string]any{"pin": "••••••"}}}
	got := acp.RestoreTranscript([]acp.Entry{old}).Entries()[0].Elicitation
	if len(got.Fields) != 1 || got.Fields[0].Name != "pin" || !got.Fields[0].Secret {
		t.Fatalf("restored fields %+v", got.Fields)
	}
	if old.Elicitation.Fields != nil {
		t.Fatal("RestoreTranscript changed the caller's entry")
	}
	broken := acp.Entry{Kind: acp.KindElicitation, Elicitation: &acp.Elicitation{Mode: acp.ElicitModeForm,
		State: acp.ElicitInvalid, Schema: json.RawMessage(`{"properties":{"x":{"type":"object"}}}`)}}
	if acp.SavedElicitationFields(&broken); broken.Elicitation.Fields != nil {
		t.Fatalf("an invalid form got fields %+v", broken.Elicitation.Fields)
	}
}
