package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"agentdesk/backend/acp"
	"agentdesk/backend/store"
)

// writeOldHistory makes the history file an older agentdesk would have left: the schema, and
// a session that quotes leakySecret in every column that keeps text, written with plain SQL
// (the search indexes filled as the old triggers did).
func writeOldHistory(t *testing.T, path string) {
	t.Helper()
	st, err := store.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	db := openRaw(t, path)
	for _, q := range []string{
		`INSERT INTO sessions (id, agent_id, agent_name, cwd, title, outcome, created_at, updated_at)
			VALUES ('old-1', 'leaky', 'Leaky', '/tmp', 'Deploy with SECRET', 'error', 1, 2)`,
		`INSERT INTO turns (session_id, turn, prompt, started_at, ended_at, stop_reason, error)
			VALUES ('old-1', 1, 'deploy using SECRET', 1, 2, 'error', 'upload failed for SECRET')`,
		`INSERT INTO entries (id, session_id, entry_id, turn, seq, kind, title, text, body) VALUES
			(1, 'old-1', 'u1', 1, 1, 'user', '', 'deploy using SECRET', '{"id":"u1","kind":"user","turn":1,"text":"deploy using SECRET"}'),
			(2, 'old-1', 'a1', 1, 2, 'agent', '', 'Your key is SECRET', '{"id":"a1","kind":"agent","turn":1,"text":"Your key is SECRET"}'),
			(3, 'old-1', 't1', 1, 3, 'tool', 'curl SECRET', 'token SECRET', '{"id":"t1","kind":"tool","turn":1,"title":"curl SECRET"}')`,
		`INSERT INTO entries_fts (rowid, title, text) SELECT id, title, text FROM entries`,
		`INSERT INTO permissions (session_id, turn, request_id, tool_call_id, title, options, requested_at)
			VALUES ('old-1', 1, '1', 't1', 'Run with SECRET?', '[{"id":"allow","name":"Allow SECRET","kind":"allow_once"}]', 1)`,
		`INSERT INTO messages (session_id, seq, direction, method, json, at)
			VALUES ('old-1', 1, 'in', 'session/update', '{"text":"SECRET"}', 1)`,
	} {
		if _, err := db.Exec(strings.ReplaceAll(q, "SECRET", leakySecret)); err != nil {
			t.Fatalf("%v\n%s", err, q)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if countSecretCells(t, path, leakySecret) == 0 {
		t.Fatal("the old history holds no secret: the test would test nothing")
	}
}

// A history written by an older agentdesk, with secret values in clear, is masked when the app
// (or a CLI command) first opens it knowing those secrets: every column, the search index and
// the file's bytes. The pass runs once per file: a row written in clear afterwards (which
// this version never does) is left alone by later starts.
func TestOldHistoryIsMaskedOnceAtStart(t *testing.T) {
	isolatedConfig(t)
	// Store the secret first, with a history of its own, as the app had done before.
	setup, _ := newTestApp(t)
	saveLeakyAgent(t, setup)
	setup.shutdown(context.Background())

	old := filepath.Join(t.TempDir(), "old.db")
	writeOldHistory(t, old)
	t.Setenv("AGENTDESK_DB", old)
	a, _ := newTestApp(t)
	<-a.masking.OnceDone()
	if found, err := a.history.ListHistory(leakySecret); err != nil || len(found) != 0 {
		t.Fatalf("a search for the secret still finds %+v, %v", found, err)
	}
	if found, err := a.history.ListHistory("Deploy"); err != nil || len(found) != 1 || !strings.Contains(found[0].Title, "Deploy with ") {
		t.Fatalf("the masked session is no longer found by its other words: %+v, %v", found, err)
	}
	a.shutdown(context.Background())
	if n := countSecretCells(t, old, leakySecret); n != 0 {
		t.Fatalf("%d cells of the old history still hold the secret", n)
	}
	if terms := secretTerms(t, old, leakySecret); len(terms) != 0 {
		t.Fatalf("the search index still holds the secret: %v", terms)
	}
	assertNoSecretBytes(t, "after the pass", old)

	// Once: a clear title written now stays as it is through the next app and CLI starts.
	db := openRaw(t, old)
	if _, err := db.Exec(`UPDATE sessions SET title = ? WHERE id = 'old-1'`, "again "+leakySecret); err != nil {
		t.Fatal(err)
	}
	db.Close()
	b, _ := newTestApp(t)
	<-b.masking.OnceDone()
	b.shutdown(context.Background())
	var out, errOut bytes.Buffer
	if code := cliRun(nil, &out, &errOut, "history"); code != 0 || strings.Contains(out.String(), leakySecret) {
		t.Fatalf("history: exit %d\n%s\n%s", code, out.String(), errOut.String())
	}
	var title string
	if err := openRaw(t, old).QueryRow(`SELECT title FROM sessions WHERE id = 'old-1'`).Scan(&title); err != nil || title != "again "+leakySecret {
		t.Fatalf("the title written after the pass is now %q (%v): the pass ran again", title, err)
	}

	// The CLI runs the pass too, on a file the app never opened.
	other := filepath.Join(t.TempDir(), "other.db")
	writeOldHistory(t, other)
	out.Reset()
	if code := cliRun(nil, &out, &errOut, "show", "--db", other, "old-1"); code != 0 || strings.Contains(out.String(), leakySecret) {
		t.Fatalf("show: exit %d\n%s\n%s", code, out.String(), errOut.String())
	}
	if n := countSecretCells(t, other, leakySecret); n != 0 {
		t.Fatalf("after the CLI's pass %d cells hold the secret", n)
	}
	if _, err := os.Stat(other); err != nil {
		t.Fatal(err)
	}
}

// A value saved as a secret from the app is masked in what the history saved before it was one
// (a key pasted into a prompt, then given to an agent).
func TestSecretSavedLaterIsMaskedInTheHistory(t *testing.T) {
	a := promptDemoInClear(t, "my key is "+leakySecret, leakySecret)
	db := os.Getenv("AGENTDESK_DB")
	saveLeakyAgent(t, a)
	a.masking.Wait()
	a.shutdown(context.Background())
	if n := countSecretCells(t, db, leakySecret); n != 0 {
		t.Fatalf("%d cells still hold the value saved as a secret", n)
	}
	if terms := secretTerms(t, db, leakySecret); len(terms) != 0 {
		t.Fatalf("the search index still holds it: %v", terms)
	}
}

// promptDemoInClear starts an app with no secret stored, plays one turn of the Demo agent with
// prompt and returns the app once the history holds clear (which it checks: else the caller
// would test nothing).
func promptDemoInClear(t *testing.T, prompt, clear string) *App {
	t.Helper()
	isolatedConfig(t)
	t.Setenv("AGENTDESK_DEMO_PACE", "0s")
	a, rec := newTestApp(t)
	<-a.masking.OnceDone()
	info, st := startAndWait(t, rec, func() (SessionInfo, error) { return a.sessions.StartSession("demo", t.TempDir(), nil, false, false) })
	if st != acp.StateIdle {
		t.Fatalf("start: %s", st)
	}
	if err := a.sessions.Prompt(info.SessionID, prompt); err != nil {
		t.Fatal(err)
	}
	p := rec.waitFor(t, func(e acp.Event) bool { return e.Kind == acp.EventPermission })
	if err := a.sessions.AnswerPermission(info.SessionID, p.RequestID, "allow"); err != nil {
		t.Fatal(err)
	}
	rec.waitFor(t, func(e acp.Event) bool { return e.Kind == acp.EventTurnEnd })
	a.flushHistory()
	if countSecretCells(t, os.Getenv("AGENTDESK_DB"), clear) == 0 {
		t.Fatal("the prompt is not in the history: the test would test nothing")
	}
	return a
}
