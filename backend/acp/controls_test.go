package acp_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/acptest"
	"agentdesk/backend/acp/jsonrpc"
	"agentdesk/backend/acp/schema"
)

// controlsAgent offers modes, models and config options like the Claude adapter, and announces
// commands, a mode change and a title between turns.
type controlsAgent struct {
	quiet // notifications
	conn  *jsonrpc.Conn
	calls chan string
}

func (a *controlsAgent) HandleRequest(req *jsonrpc.Request) {
	switch req.Method {
	case schema.MethodInitialize:
		replyInitialize(req)
	case schema.MethodSessionNew:
		req.Reply(json.RawMessage(`{"sessionId":"c1",
			"modes":{"currentModeId":"default","availableModes":[{"id":"default","name":"Default"},{"id":"plan","name":"Plan"}]},
			"models":{"currentModelId":"m1","availableModels":[{"modelId":"m1","name":"Model one"},{"modelId":"m2","name":"Model two"}]},
			"configOptions":[{"id":"mode","name":"Mode","category":"mode","type":"select","currentValue":"default","options":[{"value":"default","name":"Default"},{"value":"plan","name":"Plan"}]},
			                 {"id":"think","name":"Think harder","type":"boolean","currentValue":false}]}`), nil)
	case schema.MethodSetMode, schema.MethodSetModel:
		a.calls <- req.Method + " " + string(req.Params)
		req.Reply(struct{}{}, nil)
	case schema.MethodSetConfigOption:
		a.calls <- req.Method + " " + string(req.Params)
		req.Reply(json.RawMessage(`{"configOptions":[{"id":"think","name":"Think harder","type":"boolean","currentValue":true}]}`), nil)
	default:
		req.Reply(nil, &jsonrpc.Error{Code: schema.CodeMethodNotFound, Message: req.Method})
	}
}

func TestControlsFromTheAgent(t *testing.T) {
	a := &controlsAgent{calls: make(chan string, 8)}
	ev := newEvents()
	s := acp.NewSession(acp.Config{ID: "s1", AgentName: "ctl", Cwd: "/p", Emitter: ev, Logf: t.Logf,
		Launch: func(context.Context) (acp.Transport, error) {
			return acptest.ServeHandler(func(c *jsonrpc.Conn) jsonrpc.Handler { a.conn = c; return a }), nil
		}})
	defer s.Close()
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	c := s.Snapshot().Controls
	if c == nil || c.Modes.CurrentModeID != "default" || len(c.Models.AvailableModels) != 2 || len(c.ConfigOptions) != 2 {
		t.Fatalf("controls after session/new: %+v", c)
	}
	ctx := context.Background()
	if err := s.SetMode(ctx, "nope"); !errors.Is(err, acp.ErrNotOffered) {
		t.Fatal("a mode the agent does not offer was accepted")
	}
	if err := s.SetMode(ctx, "plan"); err != nil {
		t.Fatal(err)
	}
	if got := <-a.calls; got != `session/set_mode {"modeId":"plan","sessionId":"c1"}` {
		t.Fatalf("sent %s", got)
	}
	planInfo := ev.waitFor(t, "info after set_mode", func(e acp.Event) bool {
		return e.Kind == acp.EventInfo && e.Controls.Modes.CurrentModeID == "plan"
	})
	if err := s.SetModel(ctx, "gpt-nope"); !errors.Is(err, acp.ErrNotOffered) {
		t.Fatal("a model the agent does not offer was accepted")
	}
	if err := s.SetModel(ctx, "m2"); err != nil {
		t.Fatal(err)
	}
	<-a.calls
	if err := s.SetConfigOption(ctx, "think", json.RawMessage(`true`)); err != nil {
		t.Fatal(err)
	}
	if got := <-a.calls; got != `session/set_config_option {"configId":"think","sessionId":"c1","type":"boolean","value":true}` {
		t.Fatalf("sent %s", got)
	}
	c = s.Snapshot().Controls
	if c.Modes.CurrentModeID != "plan" || c.Models.CurrentModelID != "m2" || len(c.ConfigOptions) != 1 || string(c.ConfigOptions[0].CurrentValue) != "true" {
		t.Fatalf("controls after the changes: %+v", c)
	}

	// Updates between turns: commands, a mode change under its legacy field name, a title, then
	// a title cleared by an explicit null, and one that leaves it alone.
	for _, u := range []string{
		`{"sessionUpdate":"available_commands_update","availableCommands":[{"name":"review","description":"Review the diff","input":{"hint":"path"}}]}`,
		`{"sessionUpdate":"current_mode_update","modeId":"default"}`,
		`{"sessionUpdate":"session_info_update","title":"Fix the build"}`,
		`{"sessionUpdate":"session_info_update","updatedAt":"2026-12-01T00:00:00Z"}`,
	} {
		_ = a.conn.Notify(schema.MethodSessionUpdate, map[string]any{"sessionId": "c1", "update": json.RawMessage(u)})
	}
	info := ev.waitFor(t, "the last info", func(e acp.Event) bool {
		return e.Kind == acp.EventInfo && e.Title == "Fix the build" && e.Controls.Modes.CurrentModeID == "default"
	})
	if len(info.Controls.Commands) != 1 || info.Controls.Commands[0].Input.Hint != "path" {
		t.Fatalf("commands %+v", info.Controls.Commands)
	}
	ev.waitFor(t, "the title kept", func(e acp.Event) bool { return e.Kind == acp.EventInfo && e.Title == "Fix the build" })
	// Events are values: the one sent after set_mode still says "plan". (It shared its modes
	// with the session once, and the pump reads events without the session's lock.)
	if got := planInfo.Controls.Modes.CurrentModeID; got != "plan" {
		t.Fatalf("an event sent earlier changed afterwards: its mode is %q, want plan", got)
	}
	_ = a.conn.Notify(schema.MethodSessionUpdate, map[string]any{"sessionId": "c1", "update": json.RawMessage(`{"sessionUpdate":"session_info_update","title":null}`)})
	ev.waitFor(t, "the title cleared", func(e acp.Event) bool { return e.Kind == acp.EventInfo && e.Title == "" })
	if len(s.Snapshot().Entries) != 0 {
		t.Fatal("metadata updates became transcript entries")
	}
}
