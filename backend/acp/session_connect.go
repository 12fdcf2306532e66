package acp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"agentdesk/backend/acp/jsonrpc"
)

// Methods that reattach to an existing agent session after the agent was restarted.
const (
	MethodSessionLoad   = "session/load"   // the agent replays the history first
	MethodSessionResume = "session/resume" // no replay
)

// How Continue reattached, for the user to be told.
const (
	ContinuedResume = "resumed"     // session/resume: the agent remembers everything
	ContinuedLoad   = "loaded"      // session/load: the agent replayed its history (we keep ours)
	ContinuedNew    = "new session" // the agent cannot reattach: it starts afresh, without memory
)

// Start launches the agent, initializes the connection and opens a session in cfg.Cwd. It blocks
// until the session is idle or has failed; on failure the session is in state failed with an
// error entry (the agent's message, data and stderr tail) and the returned error says the same.
// An agent that needs a login fails with *AuthRequiredError.
func (s *Session) Start(ctx context.Context) error {
	_, err := s.connect(ctx, false)
	return err
}

// Continue restarts the agent of a session whose agent has exited (a hard stop, a crash) and
// reattaches to the same agent session with session/resume when the agent offers it, else
// session/load, else opens a new one. It returns which it did (Continued*). The transcript is
// kept either way: replayed history is not shown twice.
func (s *Session) Continue(ctx context.Context) (string, error) {
	s.mu.Lock()
	st, id := s.state, s.agentSessionID
	if s.closing {
		s.unlock()
		return "", ErrClosed
	}
	if st != StateExited || id == "" {
		s.unlock()
		return "", &StateError{State: st, Err: ErrNotExited}
	}
	s.hardStopped = false
	s.connGen++ // the old process's watcher must not report its exit over this start
	s.setStateLocked(StateStarting, "")
	s.unlock()
	return s.connect(ctx, true)
}

// connect runs the handshake on a freshly launched agent; reattach picks resume/load/new.
func (s *Session) connect(ctx context.Context, reattach bool) (string, error) {
	tr, err := s.cfg.Launch(ctx)
	if err != nil {
		return "", s.fail(fmt.Errorf("start %s: %w", s.cfg.AgentName, err), nil)
	}
	done, watched := make(chan struct{}), make(chan struct{})
	h := s.newConnHandler(tr)
	s.mu.Lock()
	s.transport, s.watchDone, s.handler = tr, done, h
	s.conn = jsonrpc.NewConn(tr, tr, h, jsonrpc.WithTap(s.tap), jsonrpc.WithLogf(s.cfg.Logf))
	conn, gen := s.conn, s.connGen
	s.unlock()
	go s.watch(conn, tr, watched, gen)
	go h.end(conn, watched, done)

	var init InitializeResult
	err = conn.Call(ctx, MethodInitialize, InitializeParams{
		ProtocolVersion: ProtocolVersion,
		// Only what is implemented: fs (confined to the session folder), terminals, terminal
		// logins (the app shows the command and can open a terminal window for it) and boolean
		// config options (shown as switches).
		ClientCapabilities: ClientCapabilities{FS: FSCapabilities{ReadTextFile: true, WriteTextFile: true}, Terminal: true,
			Auth:    &AuthCapabilities{Terminal: true},
			Session: &SessionClientCaps{ConfigOptions: &ConfigOptionCaps{Boolean: &struct{}{}}}},
		ClientInfo: s.cfg.ClientInfo,
	}, &init)
	if err != nil {
		return "", s.fail(fmt.Errorf("initialize %s: %w", s.cfg.AgentName, s.explain(err)), err)
	}
	if init.ProtocolVersion != ProtocolVersion {
		return "", s.fail(&VersionError{Agent: s.cfg.AgentName, Version: init.ProtocolVersion}, nil)
	}
	methods := decodeAuthMethods(init.AuthMethods)
	s.mu.Lock()
	s.authMethods, s.caps = methods, init.AgentCapabilities
	s.unlock()
	if s.cfg.AuthMethod != "" {
		if err := s.authenticate(ctx, methods); err != nil {
			return "", s.fail(err, err)
		}
	}
	how, err := s.openSession(ctx, conn, reattach)
	if authErr := (*AuthRequiredError)(nil); errors.As(s.asAuthRequired(err, methods), &authErr) {
		return "", s.fail(authErr, err)
	}
	if err != nil {
		return "", s.fail(fmt.Errorf("open a session with %s in %s: %w", s.cfg.AgentName, s.cfg.Cwd, s.explain(err)), err)
	}
	return how, nil
}

// openSession runs session/new, or for a reattach session/resume or session/load, and moves the
// session to idle.
func (s *Session) openSession(ctx context.Context, conn *jsonrpc.Conn, reattach bool) (string, error) {
	method, how := MethodSessionNew, ContinuedNew
	if reattach && s.caps.canResume() {
		method, how = MethodSessionResume, ContinuedResume
	} else if reattach && s.caps.LoadSession {
		method, how = MethodSessionLoad, ContinuedLoad
	}
	s.mu.Lock()
	oldID := s.agentSessionID
	var params any = NewSessionParams{Cwd: s.cfg.Cwd, MCPServers: []json.RawMessage{}}
	if method == MethodSessionNew {
		s.agentSessionID = "" // updates for the new id are kept until it is known
	} else {
		params = map[string]any{"sessionId": oldID, "cwd": s.cfg.Cwd, "mcpServers": []json.RawMessage{}}
		s.replaying = method == MethodSessionLoad
	}
	s.unlock()

	var res NewSessionResult
	err := conn.Call(ctx, method, params, &res)
	s.mu.Lock()
	defer s.unlock()
	s.replaying = false
	if err != nil {
		s.agentSessionID = oldID
		s.early, s.earlyBytes, s.earlyDropped = nil, 0, 0 // updates for a session that never opened
		return "", err
	}
	if method == MethodSessionNew {
		if res.SessionID == "" {
			return "", fmt.Errorf("%s answered session/new without a session id", s.cfg.AgentName)
		}
		s.agentSessionID = res.SessionID
	}
	pc := s.caps.PromptCapabilities
	s.controls = Controls{ConfigOptions: res.ConfigOptions, Modes: res.Modes, Models: res.Models, Commands: s.controls.Commands,
		PromptCapabilities: &pc}
	s.pushInfoLocked()
	early := s.early
	if s.earlyDropped > 0 {
		s.cfg.Logf("%s: dropped %d session/update messages sent before session/new answered (more than %d, or %d bytes)",
			s.cfg.AgentName, s.earlyDropped, MaxEarlyUpdates, MaxEarlyBytes)
	}
	s.early, s.earlyBytes, s.earlyDropped = nil, 0, 0
	for _, raw := range early {
		s.applyUpdateLocked(raw)
	}
	if s.state == StateStarting {
		msg := ""
		if reattach {
			msg = "the agent was restarted (" + how + ")"
		}
		s.setStateLocked(StateIdle, msg)
	}
	return how, nil
}

// canResume reports sessionCapabilities.resume.
func (c AgentCapabilities) canResume() bool { return c.sessionCap("resume") }

// sessionCap reports an object-valued session capability: present and not null.
func (c AgentCapabilities) sessionCap(name string) bool {
	var caps map[string]json.RawMessage
	if json.Unmarshal(c.SessionCaps, &caps) != nil {
		return false
	}
	r := strings.TrimSpace(string(caps[name]))
	return r != "" && r != "null" && r != "false"
}

// fail ends a start that went wrong: error entry, open permission requests cancelled, state
// failed, agent stopped.
func (s *Session) fail(err error, cause error) error {
	var data json.RawMessage
	var rpcErr *jsonrpc.Error
	if errors.As(cause, &rpcErr) {
		data = rpcErr.Data
	}
	s.mu.Lock()
	tr := s.transport
	stderr := ""
	if tr != nil {
		stderr = tr.StderrTail()
	}
	s.pushChange(s.tr.AddError(err.Error(), data, stderr))
	reqs := s.takePermissionsLocked() // asked during the handshake: no turn will answer them
	s.setStateLocked(StateFailed, err.Error())
	s.unlock()
	replyCancelled(reqs)
	if tr != nil {
		go tr.Close(s.cfg.CloseGrace)
	}
	return err
}

// explain adds the exit status and stderr tail to an error caused by the agent going away.
func (s *Session) explain(err error) error {
	s.mu.Lock()
	tr, conn := s.transport, s.conn
	s.unlock()
	if !errors.Is(err, jsonrpc.ErrConnClosed) || tr == nil {
		return err
	}
	exitsWithin(tr, s.cfg.CloseGrace)
	return &GoneError{How: goneMessage(conn.Err(), tr, false), Stderr: lastLines(tr.StderrTail(), 20), Err: err}
}

// goneMessage says why an agent's connection ended, from its cause (see jsonrpc.ErrConnClosed) and how
// the agent ended: "the agent exited (exit status 3)"; or, when the connection ended first,
// what went wrong and that agentdesk stops (lingered: stopped) the agent.
func goneMessage(cause error, tr Transport, lingered bool) string {
	exited, st := exitsWithin(tr, 0), tr.ExitStatus()
	var msg string
	switch {
	case cause != nil && !errors.Is(cause, jsonrpc.ErrPeerClosed):
		msg = "the connection to the agent failed: " + cause.Error()
	case lingered || !exited:
		msg = "the agent closed its output but did not exit"
	case st == "":
		return "the agent exited"
	default:
		return "the agent exited (" + st + ")"
	}
	switch {
	case !exited:
		return msg + "; agentdesk is stopping it"
	case lingered:
		return msg + ", so agentdesk stopped it (" + st + ")"
	case st != "":
		return msg + "; the agent has ended (" + st + ")"
	}
	return msg
}

// exitsWithin reports whether the agent has exited or does within d (0: now).
func exitsWithin(tr Transport, d time.Duration) bool {
	select {
	case <-tr.Exited():
		return true
	default:
	}
	if d <= 0 {
		return false
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-tr.Exited():
		return true
	case <-t.C:
		return false
	}
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}
