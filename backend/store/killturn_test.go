package store

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// killChildEnv tells the test binary to run killChild instead of the tests.
const killChildEnv = "AGENTDESK_STORE_KILL_CHILD"

// killChunks is how many chunks killChild streams into its first turn's message: a fifth
// under the race detector, which slows SQLite tenfold (the child is the same binary).
var killChunks = map[bool]int{false: 200_000, true: 40_000}[raceEnabled]

// killChild streams a turn of killChunks chunks, journaled as the app journals them, ends it,
// prints "durable" once a Flush says the turn end is on disk, then writes a second turn until
// the parent kills it with SIGKILL.
func killChild(path string) {
	ctx := context.Background()
	_, w := childTurn(ctx, path, Session{ID: "kill", Title: "kill after the turn end"}, "stream")
	w.UpsertEntry(Entry{SessionID: "kill", EntryID: "m", Turn: 1, Seq: 1, Kind: "agent_message"})
	for i := range killChunks {
		w.Message(Message{SessionID: "kill", Direction: DirectionIn, Method: "session/update", JSON: []byte(`{"n":1}`)})
		w.AppendText("kill", "m", streamChunk(i))
	}
	w.EndTurn("kill", 1, "end_turn", "", time.Time{})
	w.SetOutcome("kill", "end_turn")
	if err := w.Flush(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "child flush:", err)
		os.Exit(4)
	}
	fmt.Println("durable")
	w.StartTurn(Turn{SessionID: "kill", Turn: 2, Prompt: "keep going"})
	w.UpsertEntry(Entry{SessionID: "kill", EntryID: "m2", Turn: 2, Seq: 2, Kind: "agent_message"})
	for i := range 10_000_000 { // bounded in case the parent dies first
		w.AppendText("kill", "m2", streamChunk(i))
		if i%1000 == 0 {
			if err := w.Flush(ctx); err != nil {
				os.Exit(4)
			}
		}
	}
	os.Exit(5)
}

// TestKillRightAfterTurnEndLosesNothing kills a process with SIGKILL as soon as the store says
// a long streamed turn's end is durable, while it writes the next turn: the ended turn is whole
// after a reopen, its stop reason and its index too.
func TestKillRightAfterTurnEndLosesNothing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "kill.db")
	cmd, lines, stderr := startChild(t, killChildEnv, path)
	if !lines.Scan() || lines.Text() != "durable" {
		cmd.Wait()
		t.Fatalf("child said %q, not durable: %s", lines.Text(), stderr.String())
	}
	s, sess, turns, entries := killAndReopen(t, cmd, path, "kill") // SIGKILL, while the next turn streams
	var want strings.Builder
	for i := range killChunks {
		want.WriteString(streamChunk(i))
	}
	if len(entries) == 0 || entries[0].EntryID != "m" || entries[0].Text != want.String() {
		got := 0
		if len(entries) > 0 {
			got = len(entries[0].Text)
		}
		t.Fatalf("the ended turn's message has %d of its %d bytes after SIGKILL", got, want.Len())
	}
	if len(turns) == 0 || turns[0].StopReason != "end_turn" || turns[0].EndedAt.IsZero() {
		t.Errorf("turn 1 after SIGKILL: %+v; want ended with end_turn", turns)
	}
	if len(turns) == 2 && turns[1].StopReason != OutcomeInterrupted {
		t.Errorf("turn 2 after SIGKILL: %+v; want interrupted", turns[1])
	}
	if sess.Outcome != "end_turn" && sess.Outcome != OutcomeInterrupted {
		t.Errorf("outcome %q after SIGKILL", sess.Outcome)
	}
	msgs, err := s.Messages(context.Background(), "kill")
	if err != nil || len(msgs) != killChunks {
		t.Errorf("%d journal messages, %v; want the %d of the ended turn", len(msgs), err, killChunks)
	}
	checkIndex(t, s, map[string]string{"w39997": "kill", "w10001": "kill"}) // words of their own
}

// TestSyncedCommitLeavesOtherBatchesUnsynced: the batch of a turn end commits with
// synchronous=FULL and puts NORMAL back, so the batches of a flood do not each wait for the disk.
func TestSyncedCommitLeavesOtherBatchesUnsynced(t *testing.T) {
	s := openTest(t)
	w := s.Writer()
	w.CreateSession(Session{ID: "s"})
	w.StartTurn(Turn{SessionID: "s", Turn: 1})
	w.EndTurn("s", 1, "end_turn", "", time.Time{})
	w.SetOutcome("s", "end_turn")
	flush(t, s.Store)
	var level int
	if err := s.db.QueryRow(`PRAGMA synchronous`).Scan(&level); err != nil || level != 1 {
		t.Errorf("PRAGMA synchronous = %d, %v after a turn end's batch; want 1 (NORMAL)", level, err)
	}
	_, turns, _, err := s.Session(context.Background(), "s")
	if err != nil || len(turns) != 1 || turns[0].StopReason != "end_turn" {
		t.Errorf("turns %+v, %v", turns, err)
	}
}
