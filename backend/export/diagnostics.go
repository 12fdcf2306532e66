package export

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"time"

	"agentdesk/backend/agents"
	"agentdesk/backend/hub"
)

// Diagnostics is the save format of a diagnostic bundle (DiagnosticArchive), as the window and
// `agentdesk diagnostics` name it; DiagnosticsExt is its file's extension.
const (
	Diagnostics    = "diagnostics"
	DiagnosticsExt = "tar.gz"
)

// DiagnosticsTitle is what a bundle's file is named after, given the session's (masked) title:
// "<title> diagnostics", so that it stands apart from the session's own export.
func DiagnosticsTitle(title string) string { return title + " diagnostics" }

// maxJournalMessage is how much of one protocol message a bundle keeps: enough for any
// handshake or update, not a whole file the agent read.
const maxJournalMessage = 4 << 10

// DiagnosticArchive writes d as a gzipped tar a person can attach to a bug report: README.txt
// (what is in it and what is not), versions.json, session.json (no prompts), errors.json,
// stderr.txt, journal.ndjson (the protocol's first and last messages, each cut at 4 KiB) and
// history.json. Every byte of every file passes through mask first (nil: nothing known), so no
// secret value agentdesk knows is in it; the project's files, the environment and the secrets
// file are never read.
func DiagnosticArchive(mask *agents.Masker, d hub.Diagnosis, now time.Time) ([]byte, error) {
	files := []struct {
		name string
		body any
	}{
		{"README.txt", diagnosticsReadme(d, now)},
		{"versions.json", diagnosticVersions(d)},
		{"session.json", diagnosticSession(d)},
		{"errors.json", d.Errors},
		{"stderr.txt", d.Stderr},
		{"journal.ndjson", journalLines(mask, d)},
		{"history.json", struct {
			Health any    `json:"health"`
			Error  string `json:"error,omitempty"`
		}{d.Health, d.HealthErr}},
	}
	var out bytes.Buffer
	gz := gzip.NewWriter(&out)
	tw := tar.NewWriter(gz)
	for _, f := range files {
		var data []byte
		switch b := f.body.(type) {
		case string:
			data = []byte(b)
		default:
			raw, err := json.MarshalIndent(b, "", "  ")
			if err != nil {
				return nil, fmt.Errorf("diagnostics of session %s: %s: %w", d.Session.ID, f.name, err)
			}
			data = append(raw, '\n')
		}
		data = mask.MaskBytes(data)
		if err := tw.WriteHeader(&tar.Header{Name: f.name, Mode: 0o644, Size: int64(len(data)), ModTime: now, Typeflag: tar.TypeReg}); err != nil {
			return nil, fmt.Errorf("diagnostics of session %s: %w", d.Session.ID, err)
		}
		if _, err := tw.Write(data); err != nil {
			return nil, fmt.Errorf("diagnostics of session %s: %w", d.Session.ID, err)
		}
	}
	if err := tw.Close(); err != nil {
		return nil, fmt.Errorf("diagnostics of session %s: %w", d.Session.ID, err)
	}
	if err := gz.Close(); err != nil {
		return nil, fmt.Errorf("diagnostics of session %s: %w", d.Session.ID, err)
	}
	return out.Bytes(), nil
}

func diagnosticsReadme(d hub.Diagnosis, now time.Time) string {
	return fmt.Sprintf(`agentdesk %s: diagnostics of session %s (%s), made %s.

Attach this file to a bug report. Every secret value agentdesk knows (agents' and MCP servers'
secrets, login values) is masked in every file, and nothing of your environment is in it.
The protocol messages in journal.ndjson are the conversation's own: the prompts, the agent's
replies and the parts of your files it read or wrote in those messages. Look them over (or
delete that file) before you share the bundle.

versions.json   agentdesk, Go, the OS, and the agent as it introduced itself
session.json    the session: its agent, folder, outcome and turns (stop reasons, errors; no prompts)
errors.json     the transcript's last %d errors
stderr.txt      the last lines the agent wrote to stderr
journal.ndjson  the protocol's first %d and last %d messages, each cut at %d bytes
history.json    the history file: size, schema version, SQLite's quick_check
`, d.Version, d.Session.ID, d.Session.AgentName, now.UTC().Format(time.RFC3339), hub.DiagnosisErrors,
		hub.DiagnosisHead, hub.DiagnosisTail, maxJournalMessage)
}

// diagnosticVersions is versions.json: agentdesk's, the platform's, and the agent's own
// (initialize's agentInfo and protocol version, from the journal).
func diagnosticVersions(d hub.Diagnosis) any {
	type agent struct {
		ID              string `json:"id"`
		Name            string `json:"name"`
		Version         string `json:"version,omitempty"`
		ProtocolVersion int    `json:"protocolVersion,omitempty"`
	}
	a := agent{ID: d.Session.AgentID, Name: d.Session.AgentName}
	for _, m := range d.Journal {
		var answer struct {
			Result *struct {
				ProtocolVersion int `json:"protocolVersion"`
				AgentInfo       *struct {
					Name    string `json:"name"`
					Version string `json:"version"`
				} `json:"agentInfo"`
			} `json:"result"`
		}
		if m.Direction != "in" || json.Unmarshal(m.JSON, &answer) != nil || answer.Result == nil || answer.Result.ProtocolVersion == 0 {
			continue
		}
		a.ProtocolVersion = answer.Result.ProtocolVersion
		if info := answer.Result.AgentInfo; info != nil {
			a.Version = info.Version
		}
		break
	}
	return struct {
		Agentdesk string `json:"agentdesk"`
		Go        string `json:"go"`
		OS        string `json:"os"`
		Arch      string `json:"arch"`
		Agent     agent  `json:"agent"`
	}{d.Version, runtime.Version(), runtime.GOOS, runtime.GOARCH, a}
}

// diagnosticSession is session.json: the session's facts and its turns, without prompts.
func diagnosticSession(d hub.Diagnosis) any {
	type turn struct {
		Turn       int       `json:"turn"`
		StartedAt  time.Time `json:"startedAt"`
		EndedAt    time.Time `json:"endedAt,omitzero"`
		StopReason string    `json:"stopReason,omitempty"`
		Error      string    `json:"error,omitempty"`
	}
	turns := make([]turn, len(d.Turns))
	for i, t := range d.Turns {
		turns[i] = turn{t.Turn, t.StartedAt, t.EndedAt, t.StopReason, t.Error}
	}
	s := d.Session
	return struct {
		ID             string    `json:"id"`
		AgentID        string    `json:"agentId"`
		AgentName      string    `json:"agentName"`
		AgentSessionID string    `json:"agentSessionId,omitempty"`
		Cwd            string    `json:"cwd"`
		Dirs           []string  `json:"dirs,omitempty"`
		Outcome        string    `json:"outcome"`
		Live           bool      `json:"live"`
		CreatedAt      time.Time `json:"createdAt"`
		UpdatedAt      time.Time `json:"updatedAt"`
		Turns          []turn    `json:"turns"`
	}{s.ID, s.AgentID, s.AgentName, s.AgentSessionID, s.Cwd, s.Dirs, s.Outcome, d.Live, s.CreatedAt, s.UpdatedAt, turns}
}

// journalLines is journal.ndjson: one JSON object a message, its JSON kept whole up to
// maxJournalMessage bytes and cut (as a string, saying how much) beyond. Each is masked before
// it is cut, so that no secret cut in two leaves its first part.
func journalLines(mask *agents.Masker, d hub.Diagnosis) string {
	var b bytes.Buffer
	for _, m := range d.Journal {
		m.JSON = mask.MaskBytes(m.JSON)
		line := struct {
			Dir     string          `json:"dir"`
			Method  string          `json:"method,omitempty"`
			At      time.Time       `json:"at"`
			Message json.RawMessage `json:"message,omitempty"`
			Cut     string          `json:"cut,omitempty"`
		}{Dir: m.Direction, Method: m.Method, At: m.At}
		if len(m.JSON) <= maxJournalMessage && json.Valid(m.JSON) {
			line.Message = m.JSON
		} else {
			keep := strings.ToValidUTF8(string(m.JSON[:min(len(m.JSON), maxJournalMessage)]), "") // a rune cut in two goes
			line.Cut = fmt.Sprintf("%s…[%d of %d bytes]", keep, len(keep), len(m.JSON))
		}
		raw, _ := json.Marshal(line) // strings and valid JSON only: cannot fail
		b.Write(raw)
		b.WriteByte('\n')
	}
	return b.String()
}
