package acptest_test

import (
	"bufio"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/acptest"
	"agentdesk/backend/acp/schema"
)

// play runs steps after a prompt the test sends, and returns the agent's lines after the
// handshake replies.
func play(t *testing.T, steps string) []string {
	t.Helper()
	var s acptest.Script
	if err := json.Unmarshal([]byte(`[{"expect":"session/new"},{"reply":{"sessionId":"sc1"}},`+steps+`]`), &s); err != nil {
		t.Fatal(err)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- s.Run(inR, outW); outW.Close() }()
	go func() {
		_, _ = io.WriteString(inW, `{"jsonrpc":"2.0","id":1,"method":"session/new","params":{}}`+"\n")
		inW.Close()
	}()
	var lines []string
	sc := bufio.NewScanner(outR)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	return lines[1:] // the session/new reply
}

func TestStreamSpreadsChunksOverMessages(t *testing.T) {
	lines := play(t, `{"stream":{"messages":3,"chunks":8,"kinds":["agent_thought_chunk","agent_message_chunk"],"texts":["a{n} ","b{n} "]}}`)
	if len(lines) != 8 {
		t.Fatalf("%d lines, want 8", len(lines))
	}
	tr := acp.NewTranscript()
	for _, line := range lines {
		var m struct {
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		if err := json.Unmarshal([]byte(line), &m); err != nil || m.Method != "session/update" {
			t.Fatalf("line %s: method %q, %v", line, m.Method, err)
		}
		sid, u, err := schema.DecodeNotification(m.Params)
		if err != nil || sid != "sc1" {
			t.Fatalf("line %s: session %q, %v", line, sid, err)
		}
		tr.Apply(u)
	}
	var got []string
	for _, e := range tr.Entries() {
		got = append(got, string(e.Kind)+":"+e.MessageID+":"+e.Text)
	}
	want := []string{
		"thought:s3-m1:a1 b2 a3 ", // 8 = 3+3+2: the first 8%3 messages get one more
		"agent:s3-m2:b4 a5 b6 ",
		"thought:s3-m3:a7 b8 ",
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("entries\n got %q\nwant %q", got, want)
	}
}

func TestStreamDefaultsAndSameKindSplitsOnMessageID(t *testing.T) {
	lines := play(t, `{"stream":{"messages":2,"chunks":4}}`)
	tr := acp.NewTranscript()
	for _, line := range lines {
		var m struct{ Params json.RawMessage }
		_ = json.Unmarshal([]byte(line), &m)
		_, u, err := schema.DecodeNotification(m.Params)
		if err != nil {
			t.Fatal(err)
		}
		tr.Apply(u)
	}
	es := tr.Entries()
	if len(es) != 2 || es[0].Kind != acp.KindAgent || es[0].Text != "chunk 1 chunk 2 " || es[1].Text != "chunk 3 chunk 4 " {
		t.Fatalf("entries %+v", es)
	}
}

func TestStreamRejectsMoreMessagesThanChunks(t *testing.T) {
	var s acptest.Script
	if err := json.Unmarshal([]byte(`[{"stream":{"messages":5,"chunks":2}}]`), &s); err != nil {
		t.Fatal(err)
	}
	err := s.Run(strings.NewReader(""), io.Discard)
	if err == nil || !strings.Contains(err.Error(), "step 1: stream needs") {
		t.Fatalf("err %v", err)
	}
}

func TestStreamPacedWritesTheSameLines(t *testing.T) {
	fast := play(t, `{"stream":{"messages":2,"chunks":5}}`)
	paced := play(t, `{"stream":{"messages":2,"chunks":5,"every":"100us"}}`)
	if strings.Join(fast, "\n") != strings.Join(paced, "\n") {
		t.Fatalf("paced lines differ:\n%s\n---\n%s", strings.Join(fast, "\n"), strings.Join(paced, "\n"))
	}
	var s acptest.Script
	if err := json.Unmarshal([]byte(`[{"stream":{"messages":1,"chunks":1,"every":"soon"}}]`), &s); err != nil {
		t.Fatal(err)
	}
	if err := s.Run(strings.NewReader(""), io.Discard); err == nil || !strings.Contains(err.Error(), "stream every") {
		t.Fatalf("err %v", err)
	}
}

// A step with When plays only when its variable is set (or, with "!", unset) in the agent's
// environment: one script for an agent before and after an env_var login.
func TestStepsCanDependOnTheEnvironment(t *testing.T) {
	steps := `{"when":"ACPTEST_KEY","send":"with key"},{"when":"!ACPTEST_KEY","send":"without key"}`
	t.Setenv("ACPTEST_KEY", "")
	if got := play(t, steps); len(got) != 1 || got[0] != "without key" {
		t.Fatalf("unset: %q", got)
	}
	t.Setenv("ACPTEST_KEY", "k-123")
	if got := play(t, steps); len(got) != 1 || got[0] != "with key" {
		t.Fatalf("set: %q", got)
	}
}
