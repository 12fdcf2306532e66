//go:build linux

package acp_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/acptest"
	"agentdesk/backend/acp/schema"
)

// deafAgent is an agent that stops reading its stdin at its first prompt: it answers
// initialize and session/new line by line, then writes n fs/read_text_file requests of path(i),
// one line each, without reading a single answer, and then waits for hear before it reads again
// (nil: never). It returns when a write fails or, once it hears, at the end of its input.
func deafAgent(in io.Reader, out io.Writer, n int, path func(cwd string, i int) string, hear <-chan struct{}) error {
	br := bufio.NewReader(in)
	cwd := ""
	for {
		line, err := br.ReadBytes('\n')
		if err != nil {
			return err
		}
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				Cwd string `json:"cwd"`
			} `json:"params"`
		}
		if json.Unmarshal(line, &msg) != nil || len(msg.ID) == 0 {
			continue
		}
		var result string
		switch msg.Method {
		case schema.MethodInitialize:
			result = `{"protocolVersion":1,"agentCapabilities":{}}`
		case schema.MethodSessionNew:
			cwd, result = msg.Params.Cwd, `{"sessionId":"x1"}`
		case schema.MethodSessionPrompt:
			for i := range n {
				req, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": fmt.Sprint("r", i), "method": schema.MethodReadTextFile,
					"params": schema.ReadTextFileParams{SessionID: "x1", Path: path(cwd, i)}})
				if _, err := out.Write(append(req, '\n')); err != nil {
					return err
				}
			}
			if hear == nil {
				select {} // deaf until killed
			}
			<-hear
			_, err := io.Copy(io.Discard, br)
			return err
		default:
			if _, err := fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"no"}}`+"\n", msg.ID); err != nil {
				return err
			}
			continue
		}
		if _, err := fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"result":%s}`+"\n", msg.ID, result); err != nil {
			return err
		}
	}
}

// pipelinedReads is how many reads the deaf process agent sends without reading an answer.
const pipelinedReads = 5000

// deafProcess is the "deaf" agent process of startProcess: 5,000 reads of one file of the
// session folder, pipelined, then deaf until killed.
func deafProcess() {
	_ = deafAgent(os.Stdin, os.Stdout, pipelinedReads, func(cwd string, _ int) string { return filepath.Join(cwd, "notes.txt") }, nil)
	os.Exit(1)
}

// wantStoppedReading waits for the turn to end with the error that says the agent stopped
// reading its input, and for the session to be exited.
func wantStoppedReading(t *testing.T, s *acp.Session, ev *events) {
	t.Helper()
	end := ev.waitFor(t, "turn_end", kind(acp.EventTurnEnd))
	if end.StopReason != schema.StopError || !strings.Contains(end.Message, "the agent stopped reading its input") {
		t.Fatalf("turn_end %+v, want an error saying the agent stopped reading its input", end)
	}
	if st := ev.waitFor(t, "state", kind(acp.EventState)); st.State != acp.StateExited {
		t.Fatalf("state %s, want exited", st.State)
	}
	if _, err := s.Prompt("again"); err == nil {
		t.Fatal("a prompt was taken by a session whose agent was stopped")
	}
}

// TestPipelinedReadsWithAgentNotReading: an agent process that sends 5,000 fs/read_text_file
// requests and never reads its stdin does not deadlock the session: the answers pile up in the
// outbound queue until its bound, then the agent is stopped and the turn ends with an error
// that says it stopped reading its input.
func TestPipelinedReadsWithAgentNotReading(t *testing.T) {
	s, ev, proc := startProcess(t, "deaf")
	if _, err := s.Prompt("read it over and over"); err != nil {
		t.Fatal(err)
	}
	wantStoppedReading(t, s, ev)
	select {
	case <-proc.Exited():
	case <-time.After(hangGuard):
		t.Fatal("the deaf agent still runs")
	}
}

// TestFIFOFloodWithAgentNotReading: the FIFO flood (11,000 reads of a FIFO, refused or told
// agentdesk is busy) from an agent that reads none of the answers ends the same way, and the
// session lets the agent go once it hears again.
func TestFIFOFloodWithAgentNotReading(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe")
	if err := unix.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	hear := make(chan struct{})
	ev := newEvents()
	s := acp.NewSession(acp.Config{ID: "s1", AgentName: "deaf", Cwd: dir, Emitter: ev, Logf: t.Logf, CloseGrace: 200 * time.Millisecond,
		Launch: func(context.Context) (acp.Transport, error) {
			return acptest.Serve(func(in io.Reader, out io.Writer) error {
				return deafAgent(in, out, 11000, func(string, int) string { return fifo }, hear)
			}), nil
		}})
	t.Cleanup(func() { s.Close() })
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { close(hear) }) // before Close: an agent that never returned is let go
	if _, err := s.Prompt("read the pipe"); err != nil {
		t.Fatal(err)
	}
	wantStoppedReading(t, s, ev)
}
