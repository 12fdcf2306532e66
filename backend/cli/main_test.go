package cli

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"

	"agentdesk/backend/store"
)

// TestMain lets this test binary serve the Demo agent and play scripts, as the real binary
// does: run starts agents.Self() with "demo-agent", and the tests' --agent-cmd lines name it.
// It also runs chat, for the tests that drive it on a pseudo-terminal of its own.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && (os.Args[1] == "demo-agent" || os.Args[1] == "chat") {
		os.Exit(Run(context.Background(), os.Args[1:], Stdio{In: os.Stdin, Out: os.Stdout, Err: os.Stderr}, Options{}))
	}
	os.Exit(m.Run())
}

// runCLI, historyCLI and showCLI run one command as main would, with args after its name.
func runCLI(args []string, in io.Reader, out, errOut io.Writer) int {
	return execute(in, out, errOut, append([]string{"run"}, args...)...)
}

func historyCLI(args []string, in io.Reader, out, errOut io.Writer) int {
	return execute(in, out, errOut, append([]string{"history"}, args...)...)
}

func showCLI(args []string, in io.Reader, out, errOut io.Writer) int {
	return execute(in, out, errOut, append([]string{"show"}, args...)...)
}

// execute runs the command line args.
func execute(in io.Reader, out, errOut io.Writer, args ...string) int {
	return Run(context.Background(), args, Stdio{In: in, Out: out, Err: errOut}, Options{})
}

// isolatedConfig points agentdesk's configuration and history at temp folders, with no
// keyring (as on CI: secrets go to the 0600 file).
func isolatedConfig(t *testing.T) {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	t.Setenv("AGENTDESK_DB", filepath.Join(dir, "history.db"))
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "")
	t.Setenv("XDG_RUNTIME_DIR", dir)
}

// handshake opens most scripts (acptest steps): an agent of no capabilities answers initialize,
// then session/new with session "x".
const handshake = `
	{"expect":"initialize"}, {"reply":{"protocolVersion":1,"agentCapabilities":{}}},
	{"expect":"session/new"}, {"reply":{"sessionId":"x"}},`

// askEditA is the script step in which the agent asks to edit a.go, offering Allow (a1) and
// Reject (r1), and wants an answer that contains want.
func askEditA(want string) string {
	return `
	{"call":"session/request_permission","params":{"toolCall":{"toolCallId":"t1","title":"Edit a.go","kind":"edit"},
	  "options":[{"optionId":"a1","name":"Allow","kind":"allow_once"},{"optionId":"r1","name":"Reject","kind":"reject_once"}]},"want":"` + want + `"},`
}

// scriptAgent writes the acptest script steps to a temp file and returns the --agent-cmd that
// plays it with this test binary's demo-agent.
func scriptAgent(t *testing.T, steps string) string {
	t.Helper()
	script := filepath.Join(t.TempDir(), "agent.json")
	if err := os.WriteFile(script, []byte(steps), 0o600); err != nil {
		t.Fatal(err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return "'" + self + "' demo-agent --script " + script
}

// openHistory opens the history file db for a test to read or seed, closed when the test ends.
func openHistory(t *testing.T, db string) *store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}
