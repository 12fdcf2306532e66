package acp

import (
	"slices"
	"testing"
	"time"
)

// batchChan is a BatchEmitter that hands each call's events to a channel.
type batchChan chan []Event

var _ BatchEmitter = batchChan(nil)

func (c batchChan) Emit(ev Event)         { c <- []Event{ev} }
func (c batchChan) EmitBatch(evs []Event) { c <- slices.Clone(evs) }

// next returns the next delivery, failing the test if none comes in a minute (the waits under
// test are an hour long, so a minute tells them apart).
func (c batchChan) next(t *testing.T) []Event {
	t.Helper()
	select {
	case evs := <-c:
		return evs
	case <-time.After(time.Minute):
		t.Fatal("nothing delivered")
		return nil
	}
}

// TestAnOffScreenPumpDeliversWhatWaitsWhenShownOrUrgent: off screen, entries and chunks wait
// (here an hour) and merge; the session coming back on screen delivers them at once, in order,
// and so does an urgent event (a turn's end) queued behind them off screen.
func TestAnOffScreenPumpDeliversWhatWaitsWhenShownOrUrgent(t *testing.T) {
	got := make(batchChan, 16)
	p := newPump("s", got, t.Logf)
	defer p.close()
	p.offDelay = time.Hour
	p.setOnScreen(false)
	if p.onScreen() {
		t.Fatal("on screen after setOnScreen(false)")
	}
	p.push(Event{Kind: EventEntry, Entry: &Entry{ID: "a", Kind: KindAgent, Text: "one "}})
	p.push(Event{Kind: EventChunk, EntryID: "a", Text: "two "})
	p.push(Event{Kind: EventChunk, EntryID: "a", Text: "three"})
	p.setOnScreen(true)
	evs := got.next(t)
	if len(evs) != 2 || evs[0].Kind != EventEntry || evs[1].Kind != EventChunk || evs[1].Text != "two three" ||
		evs[0].Seq != 1 || evs[1].Seq != 2 {
		t.Fatalf("delivered %+v; want the entry (1) and its chunks merged (2)", evs)
	}

	p.setOnScreen(false)
	p.push(Event{Kind: EventChunk, EntryID: "a", Text: " four"})
	p.push(Event{Kind: EventTurnEnd, Turn: 1, StopReason: "end_turn"})
	evs = got.next(t)
	if len(evs) != 2 || evs[0].Text != " four" || evs[1].Kind != EventTurnEnd || evs[1].Seq != 4 {
		t.Fatalf("delivered %+v; want the chunk and the turn's end at once", evs)
	}
}
