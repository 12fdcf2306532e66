package acp_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/acptest"
	"agentdesk/backend/acp/jsonrpc"
	"agentdesk/backend/acp/schema"
)

// inflightAgent starts a session whose agent runs do in its first turn and then ends it; the test
// returns once do has returned.
func inflightAgent(t *testing.T, cfg acp.Config, do func(c *jsonrpc.Conn)) *acp.Session {
	t.Helper()
	done := make(chan struct{})
	cfg.Emitter, cfg.Logf = newEvents(), t.Logf
	cfg.Launch = func(context.Context) (acp.Transport, error) {
		return acptest.ServeHandler(func(c *jsonrpc.Conn) jsonrpc.Handler {
			return &promptAgent{conn: c, onPrompt: func(c *jsonrpc.Conn, req *jsonrpc.Request) {
				defer req.Reply(schema.PromptResult{StopReason: schema.StopEndTurn}, nil)
				defer close(done)
				do(c)
			}}
		}), nil
	}
	s := acp.NewSession(cfg)
	t.Cleanup(func() { s.Close() })
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Prompt("go"); err != nil {
		t.Fatal(err)
	}
	<-done
	return s
}

// TestTerminalCapRefusesOneMoreAndFreesOnExit: an agent that keeps MaxTerminals commands running
// is refused one more, with advice; once one exits, it may create another. Every request is
// answered.
func TestTerminalCapRefusesOneMoreAndFreesOnExit(t *testing.T) {
	inflightAgent(t, acp.Config{ID: "s1", AgentName: "caps", Cwd: t.TempDir()}, func(c *jsonrpc.Conn) {
		ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
		defer cancel()
		create := func() (string, error) {
			var res schema.CreateTerminalResult
			err := c.Call(ctx, schema.MethodTerminalCreate, schema.CreateTerminalParams{SessionID: "p1", Command: "sleep", Args: []string{"600"}}, &res)
			return res.TerminalID, err
		}
		var ids []string
		for i := range acp.MaxTerminals {
			id, err := create()
			if err != nil {
				t.Errorf("terminal %d of %d: %v", i+1, acp.MaxTerminals, err)
				return
			}
			ids = append(ids, id)
		}
		if _, err := create(); acptest.RPCCode(err) != schema.CodeInternalError || !strings.Contains(err.Error(), "64 terminals of this session are still running") {
			t.Errorf("terminal %d: %v; want refused, the %d still running", acp.MaxTerminals+1, err, acp.MaxTerminals)
		}
		p := schema.TerminalParams{SessionID: "p1", TerminalID: ids[0]}
		var status schema.TerminalExitStatus
		if err := c.Call(ctx, schema.MethodTerminalKill, p, nil); err != nil {
			t.Error(err)
		}
		if err := c.Call(ctx, schema.MethodTerminalWaitForExit, p, &status); err != nil || status.Signal == nil {
			t.Errorf("wait_for_exit of the killed terminal: %+v, %v", status, err)
		}
		if _, err := create(); err != nil {
			t.Errorf("a terminal after one exited: %v", err)
		}
	})
}

// TestWaitCapRefusesOneMoreAndAnswersEveryWait: MaxWaiting terminal/wait_for_exit requests
// pending on a running command are all answered with its exit status once it is killed; one
// more, sent while they wait, is refused at once with advice.
func TestWaitCapRefusesOneMoreAndAnswersEveryWait(t *testing.T) {
	inflightAgent(t, acp.Config{ID: "s1", AgentName: "caps", Cwd: t.TempDir()}, func(c *jsonrpc.Conn) {
		ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
		defer cancel()
		var res schema.CreateTerminalResult
		if err := c.Call(ctx, schema.MethodTerminalCreate, schema.CreateTerminalParams{SessionID: "p1", Command: "sleep", Args: []string{"600"}}, &res); err != nil {
			t.Error(err)
			return
		}
		p := schema.TerminalParams{SessionID: "p1", TerminalID: res.TerminalID}
		var waits []*jsonrpc.Pending
		for range acp.MaxWaiting {
			w, err := c.Start(schema.MethodTerminalWaitForExit, p)
			if err != nil {
				t.Error(err)
				return
			}
			waits = append(waits, w)
		}
		// Handled in order on the inbound loop: every wait above is pending by now.
		if err := c.Call(ctx, schema.MethodTerminalWaitForExit, p, nil); acptest.RPCCode(err) != schema.CodeInternalError ||
			!strings.Contains(err.Error(), "1024 terminal/wait_for_exit requests of this session are waiting") {
			t.Errorf("wait %d: %v; want refused as busy", acp.MaxWaiting+1, err)
		}
		if err := c.Call(ctx, schema.MethodTerminalKill, p, nil); err != nil {
			t.Error(err)
		}
		for i, w := range waits {
			var status schema.TerminalExitStatus
			if err := w.Wait(ctx, &status); err != nil || status.Signal == nil {
				t.Errorf("wait %d: %+v, %v; want the kill's signal", i, status, err)
				return
			}
		}
		var status schema.TerminalExitStatus // the slots are free again
		if err := c.Call(ctx, schema.MethodTerminalWaitForExit, p, &status); err != nil || status.Signal == nil {
			t.Errorf("a wait after the exit: %+v, %v", status, err)
		}
	})
}

// TestWorkerCapRefusesOneMoreAndAnswersEveryRequest: with MaxRunning file requests held running
// and MaxWaiting more queued, one more is refused at once with advice; once the workers move,
// every queued request is answered with its result.
func TestWorkerCapRefusesOneMoreAndAnswersEveryRequest(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a.txt")
	must(t, os.WriteFile(file, []byte("content"), 0o644))
	const total = acp.MaxRunning + acp.MaxWaiting
	entered, release := make(chan string, total+1), make(chan struct{})
	cfg := acp.Config{ID: "s1", AgentName: "caps", Cwd: dir}
	acp.SetServeHook(&cfg, func(method string) {
		entered <- method
		<-release
	})
	inflightAgent(t, cfg, func(c *jsonrpc.Conn) {
		ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
		defer cancel()
		read := schema.ReadTextFileParams{SessionID: "p1", Path: file}
		var pending []*jsonrpc.Pending
		for range total {
			p, err := c.Start(schema.MethodReadTextFile, read)
			if err != nil {
				t.Error(err)
				return
			}
			pending = append(pending, p)
		}
		if err := c.Call(ctx, schema.MethodReadTextFile, read, nil); acptest.RPCCode(err) != schema.CodeInternalError ||
			!strings.Contains(err.Error(), "agentdesk is busy: 16 file and terminal requests of this session are running and 1024 are waiting") {
			t.Errorf("request %d: %v; want refused as busy", total+1, err)
		}
		for range acp.MaxRunning {
			<-entered
		}
		close(release)
		for i, p := range pending {
			var res struct{ Content string }
			if err := p.Wait(ctx, &res); err != nil || res.Content != "content" {
				t.Errorf("request %d: %q, %v", i, res.Content, err)
				return
			}
		}
		if n := acp.MaxRunning + len(entered); n != total {
			t.Errorf("%d requests were served, want %d", n, total)
		}
	})
}
