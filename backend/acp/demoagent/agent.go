// Package demoagent is agentdesk's built-in Demo agent: a real ACP agent, served on stdio by
// `agentdesk demo-agent`, with no model behind it. Its scripted turn shows every feature —
// thoughts, a plan, a read tool call, an edit with a diff guarded by a permission request,
// terminal output (from a terminal of the client's when it offers them: a shell that only
// prints), a Markdown reply and usage — paced like a real agent, and it honours session/cancel
// at every step. Asked to, it also shows what the client may be shown beside a turn: a form or a
// link to open (elicit.go), a context compaction (/compact) and two subagent sessions
// ("subagents": subagents.go), one of which the client may cancel alone. It never writes to disk: the edit is shown, not applied.
package demoagent

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"time"

	"agentdesk/backend/acp/jsonrpc"
	"agentdesk/backend/acp/schema"
)

// DefaultPace is the pause between two steps of the script; a turn has about forty steps.
const DefaultPace = 100 * time.Millisecond

// Agent serves the demo script over one connection.
type Agent struct {
	pace time.Duration
	conn *jsonrpc.Conn

	mu       sync.Mutex
	sessions map[string]*settings          // session id → its folder and settings
	cancels  map[string]context.CancelFunc // session id → cancel of its running turn
	turns    map[string]int
	ready    chan struct{}           // closed once conn is set: the inbound loop may start before that
	terminal bool                    // the client runs terminals (its initialize said so)
	elicit   *schema.ElicitationCaps // the elicitation modes the client advertised (elicit.go)
	// subagents: the client shows subagent sessions (subagents.go).
	subagents bool
}

var _ jsonrpc.Handler = (*Agent)(nil)

// Serve runs the demo agent on r/w (its stdin and stdout) until r reaches EOF. pace is the pause
// between script steps (0 for tests).
func Serve(r io.Reader, w io.Writer, pace time.Duration) error {
	a := &Agent{pace: pace, sessions: map[string]*settings{}, cancels: map[string]context.CancelFunc{},
		turns: map[string]int{}, ready: make(chan struct{})}
	a.conn = jsonrpc.NewConn(r, w, a, jsonrpc.WithLogf(func(string, ...any) {}))
	close(a.ready)
	<-a.conn.Done()
	a.mu.Lock()
	for _, cancel := range a.cancels {
		cancel()
	}
	a.mu.Unlock()
	return nil
}

// HandleNotification implements jsonrpc.Handler: session/cancel stops the session's running turn.
func (a *Agent) HandleNotification(method string, params json.RawMessage) {
	if method != schema.MethodSessionCancel {
		return
	}
	var p schema.CancelParams
	if json.Unmarshal(params, &p) != nil {
		return
	}
	a.mu.Lock()
	if cancel, ok := a.cancels[p.SessionID]; ok {
		cancel()
	}
	a.mu.Unlock()
}

// HandleRequest implements jsonrpc.Handler.
func (a *Agent) HandleRequest(req *jsonrpc.Request) {
	<-a.ready
	switch req.Method {
	case schema.MethodInitialize:
		var p schema.InitializeParams
		_ = json.Unmarshal(req.Params, &p) // a client that says nothing runs no terminals
		a.mu.Lock()
		a.terminal = p.ClientCapabilities.Terminal
		a.elicit = p.ClientCapabilities.Elicitation
		a.subagents = p.ClientCapabilities.Subagents != nil
		a.mu.Unlock()
		req.Reply(map[string]any{
			"protocolVersion":   schema.ProtocolVersion,
			"agentCapabilities": map[string]any{"loadSession": false, "promptCapabilities": map[string]any{"image": true, "embeddedContext": true}},
			"authMethods":       []any{},
			"agentInfo":         schema.Implementation{Name: "agentdesk-demo", Title: "Demo agent", Version: "1.0.0"},
		}, nil)
	case schema.MethodSessionNew:
		var p schema.NewSessionParams
		if err := json.Unmarshal(req.Params, &p); err != nil || p.Cwd == "" {
			req.Reply(nil, &jsonrpc.Error{Code: schema.CodeInvalidParams, Message: "session/new needs an absolute cwd"})
			return
		}
		a.mu.Lock()
		id := fmt.Sprintf("demo-%d", len(a.sessions)+1)
		st := &settings{cwd: p.Cwd, mode: modeAsk, thinking: true}
		a.sessions[id] = st
		opts := st.configOptions()
		a.mu.Unlock()
		req.Reply(schema.NewSessionResult{SessionID: id, ConfigOptions: opts}, nil)
		_ = a.conn.Notify(schema.MethodSessionUpdate, map[string]any{"sessionId": id,
			"update": map[string]any{"sessionUpdate": schema.UpdateAvailableCommands, "availableCommands": commands}})
	case schema.MethodSetConfigOption:
		a.setConfigOption(req)
	case schema.MethodSessionPrompt:
		a.prompt(req)
	default:
		req.Reply(nil, &jsonrpc.Error{Code: schema.CodeMethodNotFound, Message: "Method not found: " + req.Method})
	}
}

func (a *Agent) prompt(req *jsonrpc.Request) {
	var p schema.PromptParams
	if err := json.Unmarshal(req.Params, &p); err != nil {
		req.Reply(nil, &jsonrpc.Error{Code: schema.CodeInvalidParams, Message: err.Error()})
		return
	}
	a.mu.Lock()
	st, ok := a.sessions[p.SessionID]
	if !ok {
		a.mu.Unlock()
		req.Reply(nil, &jsonrpc.Error{Code: schema.CodeInvalidParams, Message: "unknown session " + p.SessionID})
		return
	}
	if cancel, busy := a.cancels[p.SessionID]; busy {
		cancel() // like real agents: a new prompt replaces the running one
	}
	ctx, cancel := context.WithCancel(context.Background())
	a.cancels[p.SessionID] = cancel
	a.turns[p.SessionID]++
	turn := a.turns[p.SessionID]
	cfg := *st // the turn runs with the settings of its start
	a.mu.Unlock()

	// The person's text is the last text block: a continued session's summary of earlier turns
	// comes before it (acp.Summarize), and is context, not what to answer.
	text := ""
	for _, b := range p.Prompt {
		if b.Type == "text" {
			text = b.Text
		}
	}
	seen := describeAttachments(p.Prompt)
	go func() {
		s := &script{a: a, ctx: ctx, session: p.SessionID, settings: cfg, turn: turn, prompt: text, attachments: seen}
		reason := s.run()
		a.mu.Lock()
		if a.turns[p.SessionID] == turn { // a newer prompt may have replaced this one
			delete(a.cancels, p.SessionID)
		}
		a.mu.Unlock()
		cancel()
		req.Reply(s.result(reason), nil)
	}()
}
