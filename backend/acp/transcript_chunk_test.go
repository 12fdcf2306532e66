package acp

import (
	"runtime"
	"strings"
	"testing"
	"unsafe"

	"agentdesk/backend/acp/schema"
)

// A message of one chunk (a huge line) keeps the string decoded from the line: the transcript
// makes no copy of it. Later chunks still join the message, in order.
func TestOneChunkMessageKeepsItsDecodedText(t *testing.T) {
	tr := NewTranscript()
	tr.StartTurn(1, "go")
	first := strings.Repeat("word ", 1<<20)
	u, err := schema.DecodeUpdate([]byte(`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"` + first + `"}}`))
	if err != nil {
		t.Fatal(err)
	}
	decoded := u.Chunk.Content.Text
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	changes := tr.Apply(u)
	runtime.ReadMemStats(&after)
	if n := after.TotalAlloc - before.TotalAlloc; n >= uint64(len(first))/2 {
		t.Fatalf("applying a chunk of %d bytes allocated %d bytes: the transcript copied it", len(first), n)
	}
	if len(changes) != 1 || changes[0].Entry == nil {
		t.Fatalf("the first chunk made %+v, want one new entry", changes)
	}
	es := tr.Entries()
	msg := es[len(es)-1]
	if msg.Text != first {
		t.Fatalf("the message holds %d bytes, want the chunk's %d", len(msg.Text), len(first))
	}
	if unsafe.StringData(msg.Text) != unsafe.StringData(decoded) || unsafe.StringData(changes[0].Entry.Text) != unsafe.StringData(decoded) {
		t.Fatal("the transcript copied the text of a message's only chunk")
	}

	applyJSON(t, tr, `{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"and more"}}`)
	applyJSON(t, tr, `{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":", the end"}}`)
	es = tr.Entries()
	if got, want := es[len(es)-1].Text, first+"and more, the end"; got != want {
		t.Fatalf("after three chunks the message ends %q, want %q", got[len(got)-30:], want[len(want)-30:])
	}
	if len(es) != 2 {
		t.Fatalf("%d entries, want the prompt and one message", len(es))
	}
}
