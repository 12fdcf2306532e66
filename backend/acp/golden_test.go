package acp_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/schema"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// goldenEvents is shared with the frontend's vitest suite, which folds the same files.
var goldenEvents = filepath.Join("..", "..", "testdata", "events")

// fold applies events to entries the way the UI does (upsert by id, chunks append): the Go twin
// of frontend/src/state/transcript.ts, used only to check the contract.
func fold(evs []acp.Event) []acp.Entry { return foldOnto(nil, evs) }

// foldOnto applies events to a copy of entries (a snapshot's), as fold does.
func foldOnto(entries []acp.Entry, evs []acp.Event) []acp.Entry {
	out := append([]acp.Entry(nil), entries...)
	index := map[string]int{}
	for i, e := range out {
		index[e.ID] = i
	}
	for _, ev := range evs {
		switch ev.Kind {
		case acp.EventEntry:
			if i, ok := index[ev.Entry.ID]; ok {
				out[i] = *ev.Entry
			} else {
				index[ev.Entry.ID] = len(out)
				out = append(out, *ev.Entry)
			}
		case acp.EventChunk:
			out[index[ev.EntryID]].Text += ev.Text
		}
	}
	return out
}

func markdown(entries []acp.Entry) string {
	var b bytes.Buffer
	for i := range entries {
		b.WriteString(acp.EntryMarkdown(&entries[i]) + "\n")
	}
	return b.String()
}

// settledSnapshot waits for the turn's end and the idle that follows, and returns the snapshot
// then and the events up to it, failing unless they fold to the same transcript.
func settledSnapshot(t *testing.T, s *acp.Session, ev *events) (acp.Snapshot, []acp.Event) {
	t.Helper()
	ev.waitFor(t, "turn_end", kind(acp.EventTurnEnd))
	ev.waitFor(t, "idle", kind(acp.EventState))
	snap := s.Snapshot()
	live := ev.upTo(t, snap.Seq)
	assertFoldEqualsSnapshot(t, live, snap)
	return snap, live
}

func assertFoldEqualsSnapshot(t *testing.T, evs []acp.Event, snap acp.Snapshot) {
	t.Helper()
	if got, want := markdown(fold(evs)), markdown(snap.Entries); got != want {
		t.Fatalf("folding the events does not give the snapshot:\n--- events\n%s\n--- snapshot\n%s", got, want)
	}
	if evs[len(evs)-1].Seq != snap.Seq {
		t.Fatalf("snapshot seq %d, last event seq %d", snap.Seq, evs[len(evs)-1].Seq)
	}
}

// TestGoldenDemoTurn pins the event JSON and the transcript of the Demo agent's turn (allowed).
// The events file is what the frontend tests fold; -update rewrites both files.
func TestGoldenDemoTurn(t *testing.T) {
	s, ev := startDemoIn(t, 0, "/demo/project") // a folder that does not exist: a stable listing
	if _, err := s.Prompt("hello"); err != nil {
		t.Fatal(err)
	}
	answerNext(t, s, ev, schema.AllowOnce)
	ev.waitFor(t, "turn_end", kind(acp.EventTurnEnd))
	ev.waitFor(t, "idle", kind(acp.EventState))
	live := ev.list()
	checkGolden(t, "demo_allow", live, s.Snapshot().Entries)
}

// checkGolden compares a live turn with testdata/transcripts/<name>.md and with the shared event
// file goldenEventFile names: the transcript must equal the Markdown, and the events file must
// fold to it too. -update rewrites both from the live turn.
func checkGolden(t *testing.T, name string, live []acp.Event, entries []acp.Entry) {
	t.Helper()
	mdPath := filepath.Join("testdata", "transcripts", name+".md")
	evPath := filepath.Join(goldenEvents, goldenEventFile[name])
	if *update {
		raw, err := json.MarshalIndent(live, "", " ")
		if err != nil {
			t.Fatal(err)
		}
		for path, data := range map[string][]byte{evPath: raw, mdPath: []byte(markdown(entries))} {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	wantMD, err := os.ReadFile(mdPath)
	if err != nil {
		t.Fatalf("%v (run go test ./backend/acp -run %s -update)", err, t.Name())
	}
	if got := markdown(entries); got != string(wantMD) {
		t.Fatalf("transcript differs from %s:\n%s", mdPath, got)
	}
	raw, err := os.ReadFile(evPath)
	if err != nil {
		t.Fatal(err)
	}
	var golden []acp.Event
	if err := json.Unmarshal(raw, &golden); err != nil {
		t.Fatalf("decode %s: %v", evPath, err)
	}
	if got := markdown(fold(golden)); got != string(wantMD) {
		t.Fatalf("%s folds to a different transcript:\n%s", evPath, got)
	}
}

// goldenEventFile names each golden turn's shared event file (the frontend reads them too).
var goldenEventFile = map[string]string{"demo_allow": "demo_allow.json", "terminal": "terminal_turn.json",
	"context_boundary": "context_boundary.json", "elicitation": "elicitation.json", "queue": "queue_turn.json"}

// TestGoldenEventsMatchGoTypes decodes every shared event file into Go's Event type and encodes
// it again: a field the Go side does not have (or names differently) would be lost, so the
// hand-written fixtures the frontend folds cannot drift from what Go emits.
func TestGoldenEventsMatchGoTypes(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(goldenEvents, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no event goldens in %s (%v)", goldenEvents, err)
	}
	for _, path := range files {
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var original, roundTrip any
		var evs []acp.Event
		if err := json.Unmarshal(raw, &evs); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		again, _ := json.Marshal(evs)
		_ = json.Unmarshal(raw, &original)
		_ = json.Unmarshal(again, &roundTrip)
		a, _ := json.Marshal(original)
		b, _ := json.Marshal(roundTrip)
		if !bytes.Equal(a, b) {
			t.Errorf("%s does not round-trip through acp.Event:\n file: %s\n   go: %s", path, a, b)
		}
	}
}
