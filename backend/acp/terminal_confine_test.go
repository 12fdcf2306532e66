//go:build linux

package acp_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/acptest"
	"agentdesk/backend/acp/jsonrpc"
	"agentdesk/backend/acp/schema"
)

// runTerminal creates a terminal for p in a turn of s, waits for its exit and returns its output,
// or the error of the first call that failed.
func runTerminal(c *jsonrpc.Conn, p schema.CreateTerminalParams) (string, error) {
	id, err := createTerminal(c, p)
	if err != nil {
		return "", err
	}
	var out schema.TerminalOutputResult
	if err := terminalCall(c, schema.MethodTerminalWaitForExit, id, nil); err != nil {
		return "", err
	}
	err = terminalCall(c, schema.MethodTerminalOutput, id, &out)
	return out.Output, err
}

// TestTerminalCwdStaysInTheSessionFolder: a cwd outside the session folder ("/", "../..", a link
// out of it) is refused with -32602 saying so, and nothing runs; a relative cwd is resolved
// against the session folder; an absolute one inside works.
func TestTerminalCwdStaysInTheSessionFolder(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "project")
	must(t, os.MkdirAll(filepath.Join(dir, "sub", "deeper"), 0o755))
	must(t, os.Symlink(root, filepath.Join(dir, "out")))
	real, err := filepath.EvalSymlinks(dir)
	must(t, err)
	cwds := []string{"/", "../..", "out", filepath.Join(dir, ".."), "sub", filepath.Join(dir, "sub", "deeper"), "sub/../sub/deeper"}
	got := make(chan string, len(cwds))
	s, ev, _ := startTerminals(t, dir, func(c *jsonrpc.Conn, req *jsonrpc.Request) {
		defer req.Reply(schema.PromptResult{StopReason: schema.StopEndTurn}, nil)
		for _, cwd := range cwds {
			out, err := runTerminal(c, schema.CreateTerminalParams{Command: "pwd -P", Cwd: cwd})
			got <- fmt.Sprintf("%d %s%v", acptest.RPCCode(err), out, err)
		}
	})
	if _, err := s.Prompt("go"); err != nil {
		t.Fatal(err)
	}
	for _, cwd := range cwds[:4] {
		if g := <-got; !strings.HasPrefix(g, "-32602 ") || !strings.Contains(g, "outside the session folder") {
			t.Errorf("cwd %q: %s, want -32602 saying it is outside the session folder", cwd, g)
		}
	}
	for _, want := range []string{"sub", "sub/deeper", "sub/deeper"} {
		if g := <-got; g != "0 "+filepath.Join(real, want)+"\n<nil>" {
			t.Errorf("got %q, want the command run in %s", g, filepath.Join(real, want))
		}
	}
	ev.waitFor(t, "turn_end", kind(acp.EventTurnEnd))
}

// TestTerminalEnvIsTheAgentsOwn: a command sees the environment the agent was launched with
// (Config.Env) and the variables its request names, and nothing else of agentdesk's: neither a
// secret in agentdesk's own environment nor another agent's key. Without Config.Env it sees only
// a few harmless variables of agentdesk's, such as PATH.
func TestTerminalEnvIsTheAgentsOwn(t *testing.T) {
	t.Setenv("AGENTDESK_PLANTED_SECRET", "planted-in-agentdesk")
	t.Setenv("OTHER_AGENT_API_KEY", "another-agents-key")
	launch := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"), "OWN_AGENT_TOKEN=the-agents-own"}
	for _, env := range [][]string{launch, nil} {
		got := make(chan string, 1)
		dir := t.TempDir()
		s := acp.NewSession(acp.Config{ID: "s1", AgentName: "env", Cwd: dir, Emitter: newEvents(), Logf: t.Logf, Env: env,
			Launch: func(context.Context) (acp.Transport, error) {
				return acptest.ServeHandler(func(c *jsonrpc.Conn) jsonrpc.Handler {
					return &promptAgent{conn: c, onPrompt: func(c *jsonrpc.Conn, req *jsonrpc.Request) {
						defer req.Reply(schema.PromptResult{StopReason: schema.StopEndTurn}, nil)
						out, err := runTerminal(c, schema.CreateTerminalParams{Command: "env",
							Env: []schema.EnvVariable{{Name: "ASKED_FOR", Value: "by-the-request"}}})
						got <- fmt.Sprint(out, err)
					}}
				}), nil
			}})
		if err := s.Start(context.Background()); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Prompt("env"); err != nil {
			t.Fatal(err)
		}
		out := <-got
		s.Close()
		for _, leak := range []string{"planted-in-agentdesk", "another-agents-key"} {
			if strings.Contains(out, leak) {
				t.Errorf("Env %v: the command saw %q:\n%s", env != nil, leak, out)
			}
		}
		want := []string{"ASKED_FOR=by-the-request\n", "PATH=" + os.Getenv("PATH") + "\n"}
		if env != nil {
			want = append(want, "OWN_AGENT_TOKEN=the-agents-own\n")
		}
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("Env %v: the command did not see %q:\n%s", env != nil, w, out)
			}
		}
	}
}

// A session's additional folders are working folders too; a folder beside them is not.
func TestTerminalCwdInAnAdditionalFolder(t *testing.T) {
	dir, lib, other := t.TempDir(), t.TempDir(), t.TempDir()
	realLib, err := filepath.EvalSymlinks(lib)
	must(t, err)
	got := make(chan string, 2)
	s, ev, _ := startTerminals(t, dir, func(c *jsonrpc.Conn, req *jsonrpc.Request) {
		defer req.Reply(schema.PromptResult{StopReason: schema.StopEndTurn}, nil)
		for _, cwd := range []string{lib, other} {
			out, err := runTerminal(c, schema.CreateTerminalParams{Command: "pwd -P", Cwd: cwd})
			got <- fmt.Sprintf("%d %s%v", acptest.RPCCode(err), out, err)
		}
	}, lib)
	if _, err := s.Prompt("go"); err != nil {
		t.Fatal(err)
	}
	if g := <-got; g != "0 "+realLib+"\n<nil>" {
		t.Errorf("cwd in the additional folder: %q", g)
	}
	if g := <-got; !strings.HasPrefix(g, "-32602 ") || !strings.Contains(g, "outside the session's folders") {
		t.Errorf("cwd beside the folders: %q", g)
	}
	ev.waitFor(t, "turn_end", kind(acp.EventTurnEnd))
}
