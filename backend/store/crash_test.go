package store

import (
	"bufio"
	"context"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// crashChildEnv tells the test binary to run crashChild instead of the tests.
const crashChildEnv = "AGENTDESK_STORE_CRASH_CHILD"

// crashChild writes entries forever, printing "acked N" each time a Flush has made the first
// N entries durable, until the parent kills it with SIGKILL.
func crashChild(path string) {
	ctx := context.Background()
	_, w := childTurn(ctx, path, Session{ID: "crash", Title: "crash test"}, "write until killed")
	for i := 1; i <= 1_000_000; i++ { // bounded in case the parent dies first
		id := "e" + strconv.Itoa(i)
		w.UpsertEntry(Entry{SessionID: "crash", EntryID: id, Turn: 1, Seq: i, Kind: "agent_message", Text: "chunk"})
		w.AppendText("crash", id, " more text")
		w.Message(Message{SessionID: "crash", Direction: DirectionIn, Method: "session/update", JSON: []byte(`{}`)})
		if i%25 == 0 {
			if err := w.Flush(ctx); err != nil {
				fmt.Fprintln(os.Stderr, "child flush:", err)
				os.Exit(4)
			}
			fmt.Printf("acked %d\n", i)
		}
	}
	os.Exit(5)
}

// startChild starts this test binary as a child process that TestMain turns into the helper
// named by env (one of crashChildEnv, killChildEnv, holderEnv), working on the database at path.
// It returns the child, its stdout by lines and what it wrote on stderr; the child is killed
// at the end of the test if it still runs.
func startChild(t *testing.T, env, path string) (*exec.Cmd, *bufio.Scanner, *strings.Builder) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), env+"="+path)
	stderr := new(strings.Builder)
	cmd.Stderr = stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return cmd, bufio.NewScanner(out), stderr
}

// TestCrashKill9 kills a writing process with SIGKILL and checks that the file is intact,
// nothing acknowledged by Flush is lost and the open turn is marked interrupted.
func TestCrashKill9(t *testing.T) {
	path := filepath.Join(t.TempDir(), "crash.db")
	cmd, lines, stderr := startChild(t, crashChildEnv, path)

	acked := 0
	for acked < 500 && lines.Scan() {
		n, err := strconv.Atoi(strings.TrimPrefix(lines.Text(), "acked "))
		if err != nil {
			t.Fatalf("child said %q", lines.Text())
		}
		acked = n
	}
	if acked < 500 {
		cmd.Wait()
		t.Fatalf("child stopped after acking %d entries: %s", acked, stderr.String())
	}
	s, sess, turns, entries := killAndReopen(t, cmd, path, "crash") // SIGKILL, mid-write
	if len(entries) < acked {
		t.Fatalf("%d entries after the crash, but %d were acknowledged", len(entries), acked)
	}
	for i, e := range entries[:acked] {
		if e.Seq != i+1 || e.Text != "chunk more text" {
			t.Fatalf("entry %d = %+v", i, e)
		}
	}
	if sess.Outcome != OutcomeInterrupted || len(turns) != 1 || turns[0].StopReason != OutcomeInterrupted {
		t.Errorf("after crash: outcome %q, turns %+v; want interrupted", sess.Outcome, turns)
	}
	// The search index agrees with the tables it indexes.
	checkFTS(t, s.db)
}

// killAndReopen kills the child with SIGKILL, opens its database again, checks that SQLite
// finds it intact and returns it with what it holds of session id.
func killAndReopen(t *testing.T, cmd *exec.Cmd, path, id string) (testStore, Session, []Turn, []Entry) {
	t.Helper()
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	s := openTestAt(t, path)
	checkIntegrity(t, s.db)
	sess, turns, entries, err := s.Session(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return s, sess, turns, entries
}

// checkIntegrity fails the test unless SQLite's integrity_check says the file is whole.
func checkIntegrity(t testing.TB, db *sql.DB) {
	t.Helper()
	var check string
	if err := db.QueryRow(`PRAGMA integrity_check`).Scan(&check); err != nil || check != "ok" {
		t.Errorf("integrity_check = %q, %v", check, err)
	}
}

// openInChild opens the store of a child process of a kill test; any error ends the child
// (2: the open failed, 3: a write failed), which the parent reports.
func openInChild(ctx context.Context, path string) *Store {
	s, err := Open(ctx, path, WithErrorHandler(func(err error) {
		fmt.Fprintln(os.Stderr, "child writer error:", err)
		os.Exit(3)
	}))
	if err != nil {
		fmt.Fprintln(os.Stderr, "child open:", err)
		os.Exit(2)
	}
	return s
}

// childTurn opens the history at path in a child (openInChild) and queues sess with its first
// turn, of prompt: what a child that writes until it is killed starts with.
func childTurn(ctx context.Context, path string, sess Session, prompt string) (*Store, *Writer) {
	s := openInChild(ctx, path)
	w := s.Writer()
	w.CreateSession(sess)
	w.StartTurn(Turn{SessionID: sess.ID, Turn: 1, Prompt: prompt})
	return s, w
}
