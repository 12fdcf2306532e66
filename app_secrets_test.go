package main

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "modernc.org/sqlite"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/schema"
	"agentdesk/backend/agents"
)

// leakySecret is one token (letters and digits) so that the full-text index would hold it as a
// term if it ever saw it; leakyHead and leakyTail are the halves the agent streams apart.
const (
	leakySecret = "Zq7xSecretQ42v"
	leakyHead   = "Zq7xSec"
	leakyTail   = "retQ42v"
)

// leakyScript is an agent that echoes its secret everywhere a session keeps text: the title,
// a message (once cut across two chunks), a thought, a tool call's title and content, a
// permission request's title and option, the plan, an update of a kind agentdesk does not
// know, and the turn's error. The info updates between the chunks are urgent events, so the
// pump delivers the halves as separate chunk events instead of merging them.
func leakyScript(t *testing.T) string {
	t.Helper()
	s := strings.ReplaceAll(`[
 {"expect":"initialize"}, {"reply":{"protocolVersion":1,"agentCapabilities":{}}},
 {"expect":"session/new"}, {"reply":{"sessionId":"leaky-1"}},
 {"expect":"session/prompt"},
 {"update":{"sessionUpdate":"session_info_update","title":"Deploy with SECRET"}},
 {"update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Sure. "}}},
 {"update":{"sessionUpdate":"session_info_update","title":"Deploy with SECRET"}},
 {"update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Your key is HEAD"}}},
 {"update":{"sessionUpdate":"session_info_update","title":"Deploy with SECRET"}},
 {"update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"TAIL, keep it. Again: SECRET."}}},
 {"update":{"sessionUpdate":"agent_thought_chunk","content":{"type":"text","text":"thinking about SECRET"}}},
 {"update":{"sessionUpdate":"tool_call","toolCallId":"t1","title":"curl -H 'Bearer SECRET'","kind":"execute","status":"in_progress",
   "content":[{"type":"content","content":{"type":"text","text":"token SECRET"}}]}},
 {"call":"session/request_permission","params":{"toolCall":{"toolCallId":"t1","title":"Run with SECRET?"},
   "options":[{"optionId":"allow","name":"Allow SECRET","kind":"allow_once"}]}},
 {"update":{"sessionUpdate":"plan","entries":[{"content":"rotate SECRET","priority":"high","status":"pending"}]}},
 {"update":{"sessionUpdate":"odd_kind_of_update","data":"SECRET"}},
 {"error":{"code":-32603,"message":"upload failed for SECRET"}}
]`, "SECRET", leakySecret)
	s = strings.NewReplacer("HEAD", leakyHead, "TAIL", leakyTail).Replace(s)
	path := filepath.Join(t.TempDir(), "leaky.json")
	if err := os.WriteFile(path, []byte(s), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// saveLeakyAgent adds the leaky agent (this test binary playing leakyScript) as the custom
// agent "leaky", with the secret LEAKY_TOKEN.
func saveLeakyAgent(t *testing.T, a *App) {
	t.Helper()
	self, err := filepath.Abs(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	info, err := a.agents.SaveAgent(AgentSettings{Name: "Leaky", Command: self, Args: "demo-agent --script '" + leakyScript(t) + "'",
		Env: []AgentEnvVar{{Name: "LEAKY_TOKEN", Value: leakySecret, Secret: true}}})
	if err != nil || info.ID != "leaky" {
		t.Fatalf("SaveAgent: %+v, %v", info, err)
	}
}

// runLeakySession plays one turn of the leaky agent in a, answering its permission request,
// and returns the session's id once the turn has ended.
func runLeakySession(t *testing.T, a *App, rec *recordingEmitter) string {
	t.Helper()
	info, st := startAndWait(t, rec, func() (SessionInfo, error) { return a.sessions.StartSession("leaky", t.TempDir(), nil, false, false) })
	if st != acp.StateIdle {
		t.Fatalf("start: %s", st)
	}
	if err := a.sessions.Prompt(info.SessionID, "deploy using "+leakySecret+" please"); err != nil {
		t.Fatal(err)
	}
	p := rec.waitFor(t, func(e acp.Event) bool { return e.SessionID == info.SessionID && e.Kind == acp.EventPermission })
	if err := a.sessions.AnswerPermission(info.SessionID, p.RequestID, "allow"); err != nil {
		t.Fatal(err)
	}
	end := rec.waitFor(t, func(e acp.Event) bool { return e.SessionID == info.SessionID && e.Kind == acp.EventTurnEnd })
	if end.StopReason != schema.StopError || !strings.Contains(end.Message, "upload failed for "+agents.Mask) {
		t.Fatalf("the turn ended %+v, want an error quoting the masked secret", end)
	}
	return info.SessionID
}

// The history holds no secret value the masker knew, in any column of any table, in the
// full-text index, nor anywhere in the file's bytes (its WAL included), even one the agent
// streamed in two pieces.
func TestSecretsNeverReachTheHistoryFile(t *testing.T) {
	isolatedConfig(t)
	a, rec := newTestApp(t)
	saveLeakyAgent(t, a)
	id := runLeakySession(t, a, rec)
	a.flushHistory()
	db := os.Getenv("AGENTDESK_DB")
	assertNoSecretBytes(t, "while the app runs", db)

	saved, err := a.history.OpenHistory(id)
	if err != nil {
		t.Fatal(err)
	}
	var message string
	for _, e := range saved.Entries {
		if e.Kind == acp.KindAgent {
			message = e.Text
		}
	}
	want := "Sure. Your key is " + agents.Mask + ", keep it. Again: " + agents.Mask + "."
	if message != want {
		t.Fatalf("the saved message is %q, want %q", message, want)
	}
	// The halves came as two chunks, and the second was sent (and saved) as the whole entry.
	rec.mu.Lock()
	whole := false
	for _, ev := range rec.all {
		whole = whole || ev.Kind == acp.EventEntry && ev.Entry.Kind == acp.KindAgent && ev.Entry.Text == want
	}
	rec.mu.Unlock()
	if !whole {
		t.Fatal("the secret cut across chunks did not come as the whole entry: the test no longer tests the cut")
	}
	a.shutdown(context.Background())

	assertNoSecretBytes(t, "after the app quit", db)
	if n := countSecretCells(t, db, leakySecret); n != 0 {
		t.Fatalf("%d cells of the history hold the secret", n)
	}
	if terms := secretTerms(t, db, leakySecret); len(terms) != 0 {
		t.Fatalf("the search index holds the secret as terms %v", terms)
	}
}

// assertNoSecretBytes fails if the database file or its WAL holds leakySecret in any letter case
// (the search index keeps terms lower-cased).
func assertNoSecretBytes(t *testing.T, when, db string) {
	t.Helper()
	for _, path := range []string{db, db + "-wal"} {
		raw, err := os.ReadFile(path)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(bytes.ToLower(raw), []byte(strings.ToLower(leakySecret))) {
			t.Errorf("%s: %s holds the secret", when, filepath.Base(path))
		}
	}
}

// countSecretCells counts the cells of every column of every table (the search index's own
// tables included) whose text holds secret, in any letter case, and logs where they are.
func countSecretCells(t *testing.T, path, secret string) int {
	t.Helper()
	db := openRaw(t, path)
	var tables []string
	rows, err := db.Query(`SELECT name FROM sqlite_schema WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%'`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			t.Fatal(err)
		}
		tables = append(tables, name)
	}
	rows.Close()
	if len(tables) < 8 {
		t.Fatalf("only the tables %v: the scan would miss some", tables)
	}
	n := 0
	for _, table := range tables {
		cols, err := db.Query(`SELECT name FROM pragma_table_info(?)`, table)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for cols.Next() {
			var c string
			if err := cols.Scan(&c); err != nil {
				t.Fatal(err)
			}
			names = append(names, c)
		}
		cols.Close()
		for _, c := range names {
			var hits int
			q := fmt.Sprintf(`SELECT count(*) FROM %q WHERE instr(lower(CAST(%q AS TEXT)), ?) > 0`, table, c)
			if err := db.QueryRow(q, strings.ToLower(secret)).Scan(&hits); err != nil {
				t.Fatalf("%s.%s: %v", table, c, err)
			}
			if hits > 0 {
				t.Logf("%s.%s: %d rows hold the secret", table, c, hits)
			}
			n += hits
		}
	}
	return n
}

// secretTerms lists the terms of both full-text indexes that hold secret (lower-cased, as the
// tokenizer keeps them).
func secretTerms(t *testing.T, path, secret string) []string {
	t.Helper()
	db := openRaw(t, path)
	var terms []string
	for _, index := range []string{"entries_fts", "titles_fts"} {
		if _, err := db.Exec(fmt.Sprintf(`CREATE VIRTUAL TABLE temp.%s_vocab USING fts5vocab(main, %s, row)`, index, index)); err != nil {
			t.Fatal(err)
		}
		rows, err := db.Query(fmt.Sprintf(`SELECT term FROM temp.%s_vocab WHERE instr(term, ?) > 0`, index), strings.ToLower(secret))
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var term string
			if err := rows.Scan(&term); err != nil {
				t.Fatal(err)
			}
			terms = append(terms, index+":"+term)
		}
		rows.Close()
	}
	return terms
}

// openRaw opens a history file with plain SQL, as a curious program would.
func openRaw(t *testing.T, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { db.Close() })
	return db
}
