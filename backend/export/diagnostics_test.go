package export

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"agentdesk/backend/acp"
	"agentdesk/backend/agents"
	"agentdesk/backend/hub"
	"agentdesk/backend/store"
)

// TestDiagnosticArchiveMasksEveryFile: a secret the masker knows, planted in every field a
// diagnosis carries (a live agent's stderr is not masked before, nor an unmasked old journal),
// is in no byte of the archive, JSON-escaped or not; a message over 4 KiB is cut, a rune never
// split, and the files are the ones README.txt lists.
func TestDiagnosticArchiveMasksEveryFile(t *testing.T) {
	const secret = "tok-diag-\"quoted\"-8086"
	m := agents.NewMasker()
	m.Add(secret)
	esc, _ := json.Marshal(secret)
	raw := json.RawMessage(`{"jsonrpc":"2.0","method":"session/update","params":{"text":` + string(esc) + `}}`)
	// The secret straddles the 4 KiB cut: masked first, none of it is left.
	huge := json.RawMessage(`{"text":"` + strings.Repeat("é", 2040) + string(esc[1:len(esc)-1]) + strings.Repeat("x", 9000) + `"}`)
	at := time.Date(2026, 12, 7, 8, 0, 0, 0, time.UTC)
	d := hub.Diagnosis{Version: "0.1.0",
		Session: store.Session{ID: "s1", AgentID: "a", AgentName: "Agent " + secret, Cwd: "/src/" + secret, Title: secret},
		Turns:   []store.Turn{{Turn: 1, StartedAt: at, EndedAt: at, StopReason: "refusal", Error: "failed: " + secret}},
		Live:    true, Stderr: "token " + secret + " rejected\n",
		Errors:  []acp.Entry{{ID: "e1", Kind: acp.KindError, Text: "agent died: " + secret, Stderr: secret}},
		Journal: []store.Message{{Direction: "in", Method: "session/update", JSON: raw, At: at}, {Direction: "in", JSON: huge, At: at}},
		Health:  store.Health{Path: "/home/" + secret + "/history.db", QuickCheck: "ok"},
	}
	data, err := DiagnosticArchive(m, d, at)
	if err != nil {
		t.Fatal(err)
	}
	gz, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(tr)
		names = append(names, h.Name)
		for _, form := range []string{secret, string(esc), strings.Trim(string(esc), `"`), "tok-di"} {
			if bytes.Contains(body, []byte(form)) {
				t.Errorf("%s holds the secret (%s):\n%s", h.Name, form, body)
			}
		}
		if h.Name == "journal.ndjson" {
			lines := strings.Split(strings.TrimSpace(string(body)), "\n")
			if len(lines) != 2 || !strings.Contains(lines[0], `"message":{`) || !strings.Contains(lines[1], `of 13`) || strings.ContainsRune(lines[1], '\uFFFD') {
				t.Errorf("journal: want the first message whole and the second cut at a rune:\n%s", body)
			}
		}
	}
	if got := strings.Join(names, " "); got != "README.txt versions.json session.json errors.json stderr.txt journal.ndjson history.json" {
		t.Errorf("files %s", got)
	}
}
