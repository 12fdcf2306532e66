package acp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"agentdesk/backend/acp/jsonrpc"
	"agentdesk/backend/acp/schema"
)

// Methods that reattach to an existing agent session (Continue, Reopen).
const (
	MethodSessionLoad   = "session/load"   // the agent replays the history first
	MethodSessionResume = "session/resume" // no replay
)

// Continued is how Continue or Reopen reattached, for the person to be told; the transcript
// shows it too, as a boundary entry (KindBoundary).
type Continued string

// The ways a session continues.
const (
	ContinuedResumed    Continued = "resumed"    // session/resume: the agent restored its own context
	ContinuedReplayed   Continued = "replayed"   // session/load: the agent replayed it; ours is kept, never doubled
	ContinuedSummarised Continued = "summarised" // session/new: the next prompt carries a summary of the saved turns
	ContinuedNew        Continued = "new"        // session/new with nothing to tell: there were no saved turns
)

// Start launches the agent, initializes the connection and opens a session in cfg.Cwd. It blocks
// until the session is idle or has failed; on failure the session is in state failed with an
// error entry (the agent's message, data and stderr tail) and the returned error says the same.
// An agent that needs a login fails with *AuthRequiredError; a start whose ctx ends fails with
// *StartTimeoutError (its deadline passed) or ErrStartCancelled.
func (s *Session) Start(ctx context.Context) error {
	_, err := s.connect(ctx, false)
	return err
}

// Continue restarts the agent of a session whose agent has exited (a hard stop, a crash) and
// continues the same conversation as Reopen does. It returns which way it did (Continued*).
func (s *Session) Continue(ctx context.Context) (Continued, error) {
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

// Reopen starts the agent of a seeded session (Config.Seed) and continues the saved
// conversation, with the agent's own means first: session/resume when the agent offers it
// (sessionCapabilities.resume), else session/load (loadSession; its replay is matched against
// the saved entries and never shown twice: only turns the agent has beyond ours are added),
// else a new agent session whose next session/prompt carries a summary of the saved turns
// (Summarize) before the person's text. A refused resume falls back to load, a refused load to
// the summary. With nothing saved (an agent's own session opened here the first time), load
// goes first: only its replay shows the earlier turns. The transcript shows which happened in
// a boundary entry, and Reopen returns it.
// It fails as Start does, and with ErrNotSeeded for a session without a seed or already opened.
func (s *Session) Reopen(ctx context.Context) (Continued, error) {
	s.mu.Lock()
	if s.closing {
		s.unlock()
		return "", ErrClosed
	}
	if s.cfg.Seed == nil || s.state != StateStarting || s.conn != nil {
		st := s.state
		s.unlock()
		return "", &StateError{State: st, Err: ErrNotSeeded}
	}
	s.unlock()
	return s.connect(ctx, true)
}

// connect runs the handshake on a freshly launched agent; reattach continues the conversation
// (see Reopen) rather than opening a new one.
func (s *Session) connect(ctx context.Context, reattach bool) (Continued, error) {
	began, method := time.Now(), ""
	tr, err := s.cfg.Launch(ctx)
	if err != nil {
		return "", s.failStart(ctx, began, method, fmt.Errorf("start %s: %w", s.cfg.AgentName, err), nil)
	}
	done, watched := make(chan struct{}), make(chan struct{})
	h := s.newConnHandler(tr)
	s.mu.Lock()
	if s.closing {
		// Close ran while the agent launched: it found no agent to wait for, so this one must
		// not start talking (its reader would outlive the session); it is stopped here instead.
		s.unlock()
		_ = tr.Close(s.cfg.CloseGrace)
		return "", ErrClosed
	}
	s.transport, s.watchDone, s.handler = tr, done, h
	s.conn = jsonrpc.NewConn(tr, tr, h, jsonrpc.WithTap(s.tap), jsonrpc.WithLogf(s.cfg.Logf))
	conn, gen := s.conn, s.connGen
	s.unlock()
	go s.watch(conn, tr, watched, gen)
	go h.end(conn, watched, done)

	var init InitializeResult
	method = schema.MethodInitialize
	err = conn.Call(ctx, schema.MethodInitialize, schema.InitializeParams{
		ProtocolVersion: schema.ProtocolVersion,
		// Only what is implemented: fs (confined to the session folder), terminals, terminal
		// logins (the app shows the command and can open a terminal window for it) and boolean
		// config options (shown as switches).
		ClientCapabilities: schema.ClientCapabilities{FS: schema.FSCapabilities{ReadTextFile: true, WriteTextFile: true}, Terminal: true,
			Auth: &schema.AuthCapabilities{Terminal: true},
			Session: &schema.SessionClientCaps{ConfigOptions: &schema.ConfigOptionCaps{Boolean: &struct{}{}},
				Compaction: &struct{}{}}, // the divider (transcript_notices.go)
			Subagents:   &struct{}{},                             // child sessions (session_subagents.go)
			Elicitation: s.cfg.Elicit.caps(), Plan: &struct{}{}}, // plans by id (transcript_plans.go)
		ClientInfo: s.cfg.ClientInfo,
	}, &init)
	if err != nil {
		return "", s.failStart(ctx, began, method, fmt.Errorf("initialize %s: %w", s.cfg.AgentName, s.explain(err)), err)
	}
	if init.ProtocolVersion != schema.ProtocolVersion {
		return "", s.fail(&VersionError{Agent: s.cfg.AgentName, Version: init.ProtocolVersion}, nil)
	}
	methods := decodeAuthMethods(init.AuthMethods)
	s.mu.Lock()
	init.AgentCapabilities.steer = init.steerMode()
	s.authMethods, s.caps = methods, init.AgentCapabilities
	before := RunningVersion(s.cfg.AgentVersion, s.agentInfo)
	s.agentInfo = init.AgentInfo
	if RunningVersion(s.cfg.AgentVersion, s.agentInfo) != before {
		s.pushInfoLocked() // the header learns the agent's own version
	}
	s.unlock()
	s.askAuthStatus(conn, init.AgentCapabilities)
	if s.cfg.AuthMethod != "" {
		method = MethodAuthenticate
		if err := s.authenticate(ctx, methods); err != nil {
			return "", s.failStart(ctx, began, method, err, err)
		}
	}
	how, err := s.openSession(ctx, conn, reattach, &method)
	if authErr := (*AuthRequiredError)(nil); errors.As(s.asAuthRequired(err, methods), &authErr) {
		return "", s.fail(authErr, err)
	}
	if err != nil {
		return "", s.failStart(ctx, began, method,
			withStartupHint(fmt.Errorf("open a session with %s in %s: %w", s.cfg.AgentName, s.cfg.Cwd, s.explain(err)), err), err)
	}
	return how, nil
}

// failStart fails the start (fail) with err, or, when ctx has ended, with what ended it: a
// *StartTimeoutError naming method, the call that was waiting ("" while launching), or
// ErrStartCancelled.
func (s *Session) failStart(ctx context.Context, began time.Time, method string, err, cause error) error {
	switch ctxErr := ctx.Err(); {
	case errors.Is(ctxErr, context.DeadlineExceeded):
		after := time.Since(began)
		if d, ok := ctx.Deadline(); ok {
			after = d.Sub(began) // the deadline was set a moment before the start began
		}
		if after >= time.Second {
			after = after.Round(time.Second)
		} else {
			after = after.Round(10 * time.Millisecond)
		}
		return s.fail(&StartTimeoutError{Agent: s.cfg.AgentName, Method: method, After: after}, nil)
	case ctxErr != nil:
		return s.fail(ErrStartCancelled, nil)
	}
	return s.failAs(startFailureText(s.cfg.AgentName, err), err, cause)
}

// startFailureText is what the transcript and the session's state say of a start that failed:
// for an agent that went away, which agent and how it ended, without the call under way (a
// protocol detail) and without its stderr lines, which the error entry shows beneath; any other
// error as it is. The error returned to the caller keeps both.
func startFailureText(agent string, err error) string {
	var gone *GoneError
	if errors.As(err, &gone) {
		return agent + " did not start: " + gone.How
	}
	return err.Error()
}

// openSession opens the agent session and moves the session to idle: session/new for a start;
// for a continue (reattach) of a session the agent knew, session/resume, then session/load,
// each when offered and the one before was refused, then session/new. *method is set to the
// call under way (for StartTimeoutError).
func (s *Session) openSession(ctx context.Context, conn *jsonrpc.Conn, reattach bool, method *string) (Continued, error) {
	s.mu.Lock()
	id, caps, nothingSaved := s.agentSessionID, s.caps, len(s.tr.entries) == 0
	s.unlock()
	if f := s.forkOrigin(); reattach && f != nil && id == "" {
		return s.openFork(ctx, conn, f, caps, method)
	}
	if reattach && id != "" {
		var ways []string
		if caps.canResume() {
			ways = append(ways, MethodSessionResume)
		}
		if caps.LoadSession {
			ways = append(ways, MethodSessionLoad)
			if nothingSaved {
				// An agent's own session opened here for the first time: only a replay shows
				// its earlier turns, so load goes first.
				ways = append([]string{MethodSessionLoad}, ways[:len(ways)-1]...)
			}
		}
		for _, m := range ways {
			*method = m
			how, err := s.callOpen(ctx, conn, m, true)
			if !refused(ctx, err) {
				return how, err
			}
			s.cfg.Logf("session %s: %s refused %s (%v); continuing another way", s.cfg.ID, s.cfg.AgentName, m, err)
		}
	}
	*method = schema.MethodSessionNew
	return s.callOpen(ctx, conn, schema.MethodSessionNew, reattach)
}

// refused reports an error answer of the agent to a call (not a login it needs, not the
// connection or ctx ending): the next way to continue may still work.
func refused(ctx context.Context, err error) bool {
	var rpcErr *jsonrpc.Error
	return err != nil && ctx.Err() == nil && errors.As(err, &rpcErr) && rpcErr.Code != schema.CodeAuthRequired
}

// callOpen runs one of session/new, session/resume or session/load and, when it succeeds,
// announces how the session continues (continuedLocked) and moves it to idle.
func (s *Session) callOpen(ctx context.Context, conn *jsonrpc.Conn, method string, reattach bool) (Continued, error) {
	s.mu.Lock()
	oldID := s.agentSessionID
	mcp, dirs, rules := s.mcpServersLocked(), s.dirsForAgentLocked(), s.systemPromptLocked()
	var params any = schema.NewSessionParams{Cwd: s.cfg.Cwd, MCPServers: mcp, AdditionalDirectories: dirs, SystemPrompt: rules}
	open := func(sessionID string) map[string]any {
		p := map[string]any{"sessionId": sessionID, "cwd": s.cfg.Cwd, "mcpServers": mcp}
		if len(dirs) > 0 {
			p["additionalDirectories"] = dirs
		}
		if rules != nil {
			p["systemPrompt"] = rules
		}
		return p
	}
	switch method {
	case schema.MethodSessionNew:
		s.agentSessionID = "" // updates for the new id are kept until it is known
	case MethodSessionFork:
		s.agentSessionID = "" // as for session/new: the fork's id comes with the answer
		params = open(s.cfg.Seed.Fork.AgentSessionID)
	default:
		params = open(oldID)
		s.replaying = true // some agents replay on resume too: never news
		if method == MethodSessionLoad {
			s.replay = newReplayed()
		}
	}
	s.unlock()

	var res schema.NewSessionResult // a null result (session/load may answer null) leaves it empty
	err := conn.Call(ctx, method, params, &res)
	s.mu.Lock()
	defer s.unlock()
	rep := s.replay
	s.replaying, s.replay = false, nil
	if err != nil {
		s.agentSessionID = oldID
		s.early, s.earlyBytes, s.earlyDropped = nil, 0, 0 // updates for a session that never opened
		return "", err
	}
	if method == schema.MethodSessionNew || method == MethodSessionFork {
		if res.SessionID == "" {
			return "", fmt.Errorf("%s answered %s without a session id", s.cfg.AgentName, method)
		}
		s.agentSessionID = res.SessionID
	}
	pc := s.caps.PromptCapabilities
	s.controls = Controls{ConfigOptions: res.ConfigOptions, Modes: res.Modes, Models: res.Models, Commands: s.controls.Commands,
		PromptCapabilities: &pc, AgentFeatures: s.caps.features(), CanSteer: s.caps.steer != steerNone}
	s.pushInfoLocked()
	early := s.early
	if s.earlyDropped > 0 {
		s.cfg.Logf("%s: dropped %d session/update messages sent before session/new answered (more than %d, or %d bytes)",
			s.cfg.AgentName, s.earlyDropped, MaxEarlyUpdates, MaxEarlyBytes)
	}
	s.early, s.earlyBytes, s.earlyDropped = nil, 0, 0
	how := Continued("")
	switch f := s.forkOrigin(); {
	case reattach && f != nil && oldID == "":
		how = s.forkedLocked(method, f)
	case reattach:
		how = s.continuedLocked(method, rep)
	}
	for _, raw := range early {
		s.applyUpdateLocked(raw)
	}
	if s.state == StateStarting {
		s.setStateLocked(StateIdle, "")
	}
	return how, nil
}

// features is what the window may offer of the agent's own (Controls.AgentFeatures).
func (c AgentCapabilities) features() *AgentFeatures {
	return &AgentFeatures{ListSessions: c.sessionCap("list"), DeleteSessions: c.sessionCap("delete"),
		ArchiveSessions: c.sessionCap("archive"),
		Logout:          objectCap(c.Auth, "logout"), SystemPrompt: c.sessionCap("systemPrompt")}
}

// canResume reports sessionCapabilities.resume.
func (c AgentCapabilities) canResume() bool { return c.sessionCap("resume") }

// sessionCap reports an object-valued session capability: present and not null.
func (c AgentCapabilities) sessionCap(name string) bool { return objectCap(c.SessionCaps, name) }

// objectCap reports whether the capability object raw has name present and not null (or false).
func objectCap(raw json.RawMessage, name string) bool {
	var caps map[string]json.RawMessage
	if json.Unmarshal(raw, &caps) != nil {
		return false
	}
	r := strings.TrimSpace(string(caps[name]))
	return r != "" && r != "null" && r != "false"
}

// fail ends a start that went wrong: error entry, open permission requests cancelled, state
// failed, agent stopped.
func (s *Session) fail(err error, cause error) error {
	return s.failAs(err.Error(), err, cause)
}

// failAs is fail with text as what the transcript's error entry and the failed state say.
func (s *Session) failAs(text string, err error, cause error) error {
	var data json.RawMessage
	var rpcErr *jsonrpc.Error
	if errors.As(cause, &rpcErr) {
		data = rpcErr.Data
	}
	s.mu.Lock()
	tr, conn := s.transport, s.conn
	stderr := ""
	if tr != nil {
		stderr = tr.StderrTail()
	}
	s.pushChange(s.tr.AddError(text, data, stderr))
	reqs := s.takePermissionsLocked() // asked during the handshake: no turn will answer them
	s.setStateLocked(StateFailed, text)
	s.unlock()
	replyCancelled(reqs)
	if tr != nil {
		go func() {
			if conn != nil {
				conn.Flush(s.cfg.CloseGrace) // the "cancelled" answers reach the agent before its input closes
			}
			_ = tr.Close(s.cfg.CloseGrace)
		}()
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
	advice := ""
	switch {
	case errors.Is(cause, jsonrpc.ErrPeerNotReading):
		msg = "the agent stopped reading its input: it sent requests without reading their answers, more than agentdesk holds for it"
		advice = ". Continue the session to restart the agent; if this happens again, report it to the agent's makers"
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
		return msg + "; agentdesk is stopping it" + advice
	case lingered:
		return msg + ", so agentdesk stopped it (" + st + ")" + advice
	case st != "":
		return msg + "; the agent has ended (" + st + ")" + advice
	}
	return msg + advice
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
