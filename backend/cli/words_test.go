package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/schema"
	"agentdesk/backend/agents"
	"agentdesk/backend/hub"
)

// TestCLIWordsTheEngineErrors: each refusal of the engine and the hub gets the command line's own
// advice (flags, Ctrl-C), never the window's (buttons, the history).
func TestCLIWordsTheEngineErrors(t *testing.T) {
	agent := agents.Agent{Command: "/usr/bin/acme", Args: []string{"--acp"}}
	for _, c := range []struct {
		err  error
		want string
	}{
		{fmt.Errorf("prompt: %w", acp.ErrBusy), "the agent is still starting; try again once it is ready"},
		{&acp.StateError{State: acp.StateExited, Err: acp.ErrEnded}, "run again to start a new session"},
		{&acp.TerminalLoginError{Method: "cli-login", Args: []string{"auth", "login"}}, "run `/usr/bin/acme auth login` in a terminal, then run again without --auth"},
		{&acp.AuthRequiredError{Agent: "Acme", Methods: []acp.AuthMethod{{ID: "browser"}, {ID: "api-key"}}, Err: nil}, "run again with --auth METHOD_ID (browser, api-key)"},
		{hub.ErrNoFolder, "--cwd DIR"},
		{&acp.StartTimeoutError{Agent: "Acme", Method: schema.MethodInitialize, After: time.Minute}, "run again; if it happens again, run the agent's command in a terminal"},
		{&hub.FolderError{Path: "/nowhere"}, "give an existing project folder with --cwd DIR"},
	} {
		got := hint(c.err, agent)
		if !strings.Contains(got, c.want) {
			t.Errorf("hint(%T) = %q, want it to contain %q", c.err, got, c.want)
		}
		for _, window := range []string{"press Stop", "open it from the history", "login prompt"} {
			if strings.Contains(got, window) {
				t.Errorf("hint(%T) = %q: the window's words", c.err, got)
			}
		}
	}
	if h := hint(&acp.VersionError{Agent: "Acme", Version: 2}, agent); h != "" {
		t.Errorf("a version mismatch says what to do itself; hint %q", h)
	}
}

// TestCLITellsHowToLogIn: an agent that needs a login lists its methods, and run says to pick
// one with --auth; a terminal method given with --auth says which command to run first.
func TestCLITellsHowToLogIn(t *testing.T) {
	dir := t.TempDir()
	script := dir + "/login.json"
	if err := os.WriteFile(script, []byte(`[
		{"expect":"initialize"}, {"reply":{"protocolVersion":1,"agentCapabilities":{},"authMethods":[
			{"id":"browser","name":"Log in with a browser"},
			{"id":"cli-login","name":"Log in in a terminal","type":"terminal","args":["auth","login"]}]}},
		{"expect":"session/new"}, {"error":{"code":-32000,"message":"Authentication required"}}]`), 0o600); err != nil {
		t.Fatal(err)
	}
	self, _ := os.Executable()
	agentCmd := "'" + self + "' demo-agent --script " + script
	var out, errOut bytes.Buffer
	code := runCLI([]string{"--db", dir + "/c.db", "--agent-cmd", agentCmd, "--cwd", dir, "hi"}, strings.NewReader(""), &out, &errOut)
	if code != ExitLogin || !strings.Contains(errOut.String(), "browser (agent)") ||
		!strings.Contains(errOut.String(), "agentdesk run: log in: run again with --auth METHOD_ID (browser, cli-login)") {
		t.Fatalf("exit %d, stderr:\n%s", code, errOut.String())
	}
	out.Reset()
	errOut.Reset()
	code = runCLI([]string{"--db", dir + "/c.db", "--agent-cmd", agentCmd, "--auth", "cli-login", "--cwd", dir, "hi"}, strings.NewReader(""), &out, &errOut)
	want := "run `" + self + " auth login` in a terminal, then run again without --auth" // the agent's program, the method's args
	if code != ExitLogin || !strings.Contains(errOut.String(), want) {
		t.Fatalf("exit %d, stderr:\n%s\nwant %q", code, errOut.String(), want)
	}
}

// TestAFailedStartIsToldOnce: on one terminal (stdout and stderr the same file) a start the
// agent refuses shows its error once, then what to do, not as an error line, a state line and a
// complaint on stderr; with the streams apart, stderr still says it.
func TestAFailedStartIsToldOnce(t *testing.T) {
	dir := t.TempDir()
	agent := scriptAgent(t, `[
		{"expect":"initialize"}, {"reply":{"protocolVersion":1,"agentCapabilities":{},"authMethods":[
			{"id":"browser","name":"Log in with a browser"}]}},
		{"expect":"session/new"}, {"error":{"code":-32000,"message":"Authentication required"}}]`)
	args := []string{"--db", dir + "/c.db", "--agent-cmd", agent, "--cwd", dir, "hi"}
	both, err := os.Create(filepath.Join(dir, "terminal"))
	if err != nil {
		t.Fatal(err)
	}
	defer both.Close()
	if code := runCLI(args, strings.NewReader(""), both, both); code != ExitLogin {
		t.Fatalf("exit %d", code)
	}
	shown, _ := os.ReadFile(both.Name())
	if n := strings.Count(string(shown), "Authentication required"); n != 1 ||
		!strings.Contains(string(shown), "log in: run again with --auth METHOD_ID (browser)") {
		t.Fatalf("the error shown %d times:\n%s", n, shown)
	}
	var out, errOut bytes.Buffer
	if code := runCLI(args, strings.NewReader(""), &out, &errOut); code != ExitLogin ||
		strings.Count(out.String(), "Authentication required") != 1 || strings.Count(errOut.String(), "Authentication required") != 1 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out.String(), errOut.String())
	}
}
