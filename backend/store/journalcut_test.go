package store

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// A huge message is journaled with its long strings cut, still JSON, whatever the cut lands
// on (an escape, a character of several bytes); a message under the limit is kept as it is.
func TestJournalCutsHugeMessagesAndKeepsThemJSON(t *testing.T) {
	small := []byte(`{"jsonrpc":"2.0","method":"session/update","params":{"text":"hello"}}`)
	if got := cutJournal(small); !bytes.Equal(got, small) || &got[0] == &small[0] {
		t.Errorf("a small message became %q (or was not copied)", got)
	}
	for shift := range 8 {
		text := strings.Repeat("x", shift) + strings.Repeat("é\n\"\\u00e9 ✓", maxJournalBytes/4)
		msg, _ := json.Marshal(map[string]any{"method": "session/update", "params": map[string]any{
			"sessionId": "s1", "update": map[string]any{"content": map[string]string{"type": "text", "text": text}, "after": "kept"}}})
		got := cutJournal(msg)
		var back struct {
			Method string
			Params struct {
				SessionID string
				Update    struct {
					Content struct{ Type, Text string }
					After   string
				}
			}
		}
		if err := json.Unmarshal(got, &back); err != nil {
			t.Fatalf("shift %d: the cut message is not JSON: %v (its end: %q)", shift, err, got[len(got)-80:])
		}
		u := back.Params.Update
		if back.Method != "session/update" || back.Params.SessionID != "s1" || u.Content.Type != "text" || u.After != "" && u.After != "kept" {
			t.Errorf("shift %d: the cut message lost its structure: %+v", shift, back)
		}
		head, _, cut := strings.Cut(u.Content.Text, "…[")
		if !cut || !strings.HasPrefix(text, head) || !strings.HasSuffix(u.Content.Text, " MB cut]") {
			t.Errorf("shift %d: the cut text ends %q", shift, u.Content.Text[max(0, len(u.Content.Text)-40):])
		}
		if len(got) > maxJournalBytes+1024 || len(msg) < 2*maxJournalBytes {
			t.Errorf("shift %d: %d bytes cut to %d", shift, len(msg), len(got))
		}
	}
	numbers := []byte("[" + strings.Repeat("1,", 2*maxJournalBytes) + "1]")
	if got := cutJournal(numbers); !json.Valid(got) || len(got) > 200 {
		t.Errorf("a huge array of numbers became %d bytes: %.100q", len(got), got)
	}
}

// The writer journals a huge message cut (TestHugeLineIsStoredOnce in package hub measures it).
func TestWriterJournalsAHugeMessageCut(t *testing.T) {
	s := openTest(t)
	w := s.Writer()
	w.CreateSession(Session{ID: "s"})
	huge, _ := json.Marshal(map[string]string{"text": strings.Repeat("word ", 2*maxJournalBytes)})
	w.Message(Message{SessionID: "s", Direction: DirectionIn, Method: "session/update", JSON: huge})
	flush(t, s.Store)
	msgs, err := s.Messages(context.Background(), "s")
	if err != nil || len(msgs) != 1 || !json.Valid(msgs[0].JSON) || len(msgs[0].JSON) > maxJournalBytes+100 {
		t.Fatalf("journal: %d messages, %v", len(msgs), err)
	}
}
