package store

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// bytesWritten returns how many bytes this process has written to files so far (wchar of
// /proc/self/io), or -1 where the system does not say.
func bytesWritten(t testing.TB) int64 {
	t.Helper()
	data, err := os.ReadFile("/proc/self/io")
	if err != nil {
		return -1
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "wchar: "); ok {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				t.Fatalf("/proc/self/io: %q", line)
			}
			return n
		}
	}
	return -1
}

// streamChunk is chunk i of the long test messages: words of a few letters, one in seven
// glued to the next chunk (a word cut between two chunks, as agents stream them).
func streamChunk(i int) string {
	if i%7 == 0 {
		return "w" + strconv.Itoa(i)
	}
	return "w" + strconv.Itoa(i) + " "
}

// TestHalfAMillionChunkMessage streams one message of 500,000 chunks into the writer as fast as
// a flood queues them, then ends the turn. The writer must save it in writes linear in its
// length (it used to rewrite and re-index the whole message every batch: 288 s to exit), so
// Close follows the turn end within seconds. The check is the bytes written per byte of text,
// not a time: BenchmarkAppendLongMessage has the timing. The deadline only stops a hang.
func TestHalfAMillionChunkMessage(t *testing.T) {
	chunks := 500_000
	if raceEnabled {
		chunks = 100_000
	}
	s := openTest(t)
	w := s.Writer()
	w.CreateSession(Session{ID: "s", Title: "flood"})
	w.StartTurn(Turn{SessionID: "s", Turn: 1, Prompt: "stream"})
	w.UpsertEntry(Entry{SessionID: "s", EntryID: "m", Turn: 1, Seq: 1, Kind: "agent_message"})
	flush(t, s.Store)

	written := bytesWritten(t)
	var want strings.Builder
	for i := range chunks {
		chunk := streamChunk(i)
		w.AppendText("s", "m", chunk)
		want.WriteString(chunk)
	}
	w.EndTurn("s", 1, "end_turn", "", time.Time{})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := w.Flush(ctx); err != nil {
		t.Fatalf("the %d-chunk message was not saved 2 minutes after its turn ended (a quadratic append takes longer): %v",
			chunks, err)
	}
	if written >= 0 {
		perByte := float64(bytesWritten(t)-written) / float64(want.Len())
		t.Logf("%d chunks, %d bytes of text: %.1f bytes written per byte", chunks, want.Len(), perByte)
		// The text, its last piece rewritten each batch, its index (every word here is new to
		// it) and the WAL checkpoints: about 15 at any length (measured). Rewriting the whole
		// message every batch wrote 128 per byte at 100,000 chunks, 266 at 200,000.
		if perByte > 40 {
			t.Errorf("%.1f bytes written per byte of text, want at most 40: appends are not linear", perByte)
		}
	}
	_, turns, entries, err := s.Session(context.Background(), "s")
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].Text != want.String() {
		t.Fatalf("the message reads back as %d entries; want one of %d bytes", len(entries), want.Len())
	}
	if len(turns) != 1 || turns[0].StopReason != "end_turn" {
		t.Errorf("turns %+v, want the ended turn", turns)
	}
	last := "w" + strconv.Itoa(chunks-1) // a word of its own: nor it nor chunks-2 is a multiple of 7
	checkIndex(t, s, map[string]string{last: "s", "w7w8": "s", "w7": "", "w2": "s"})
}
