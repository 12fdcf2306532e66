package hub

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/acptest"
	"agentdesk/backend/agents"
	"agentdesk/backend/store"
)

// TestMain lets this test binary be an agent the hub starts as a real process: given
// "play-script FILE" it plays that acptest script on stdin/stdout.
func TestMain(m *testing.M) {
	if len(os.Args) == 3 && os.Args[1] == "play-script" {
		if fifo := os.Getenv(pidFIFOEnv); fifo != "" { // tell the test which process this is
			if f, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
				fmt.Fprintln(f, os.Getpid())
				f.Close()
			}
		}
		s, err := acptest.LoadScript(os.Args[2])
		if err == nil {
			err = s.Run(os.Stdin, os.Stdout)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// pidFIFOEnv names a FIFO a play-script agent writes its process id to before it plays: the
// test reads it, so it waits for the agent to run without polling.
const pidFIFOEnv = "HUB_TEST_PID_FIFO"

// agentList is a fixed list of agents without secrets.
// handshake opens most scripts (acptest steps): an agent of no capabilities answers initialize,
// then session/new with session "x".
const handshake = `
	{"expect":"initialize"}, {"reply":{"protocolVersion":1,"agentCapabilities":{}}},
	{"expect":"session/new"}, {"reply":{"sessionId":"x"}},`

type agentList []agents.Agent

var _ AgentSource = agentList(nil)

// Find is agents.Find over the list.
func (l agentList) Find(id string) (agents.Agent, error) { return agents.Find(l, id) }

// Masker is nil: a fixed list has no secrets.
func (l agentList) Masker() *agents.Masker { return nil }

// waitFor returns the first event on feed that matches (acptest.Await).
func waitFor(t *testing.T, feed <-chan acp.Event, match func(acp.Event) bool) acp.Event {
	t.Helper()
	return acptest.Await(t, feed, "matching event", match)
}

// transcriptMarkdown renders entries as the export does, to compare two transcripts.
func transcriptMarkdown(entries []acp.Entry) string {
	var b []byte
	for i := range entries {
		b = append(b, acp.EntryMarkdown(&entries[i])...)
	}
	return string(b)
}

// openTestStore opens the history at path for a test; a write the store fails fails the test.
// The caller closes it.
func openTestStore(t *testing.T, path string) *store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), path, store.WithErrorHandler(func(err error) { t.Errorf("write error: %v", err) }))
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// scriptHub opens a history at dir/history.db, closed when the test ends, and a hub over it whose
// agents (ids; none: "a") each play script (scriptAgent).
func scriptHub(t *testing.T, dir, script string, ids ...string) (*Hub, *store.Store) {
	t.Helper()
	st := openTestStore(t, filepath.Join(dir, "history.db"))
	t.Cleanup(func() { st.Close() })
	if len(ids) == 0 {
		ids = []string{"a"}
	}
	var list agentList
	for _, id := range ids {
		list = append(list, scriptAgent(t, dir, id, script))
	}
	return New(st, list, t.Logf), st
}
