package acp

import (
	"context"
	"encoding/json"
	"errors"

	"agentdesk/backend/acp/jsonrpc"
)

// Prompt starts a turn with text and returns its number at once; the turn ends with a turn_end
// event. It fails with ErrBusy unless the session is idle.
func (s *Session) Prompt(text string) (int, error) { return s.PromptWith(text, nil) }

// PromptWith starts a turn with text and attachments, like Prompt. Each attachment becomes a
// content block the agent accepts: a file of the session folder is embedded when the agent
// accepts embedded context and it is small text, else linked; an image needs the agent's image
// capability. A file outside the folder, an image the agent does not accept or one that is too
// large fails the call (*AttachError) and nothing is sent.
func (s *Session) PromptWith(text string, attachments []Attachment) (int, error) {
	if err := s.idleErr(); err != nil {
		return 0, err
	}
	s.mu.Lock()
	caps := s.caps.PromptCapabilities
	s.unlock()
	extra, infos, err := buildAttachments(s.cfg.Cwd, s.cfg.Dirs, s.cfg.AgentName, caps, attachments) // file I/O: no lock held
	if err != nil {
		return 0, err
	}
	blocks := make([]ContentBlock, 0, 1+len(extra))
	if text != "" || len(extra) == 0 {
		blocks = append(blocks, TextBlock(text))
	}
	blocks = append(blocks, extra...)

	s.mu.Lock()
	if err := s.idleErrLocked(); err != nil {
		s.unlock()
		return 0, err
	}
	turn := s.tr.Turn() + 1
	s.pushChange(s.tr.StartTurn(turn, text, infos...))
	s.turnActive = true
	s.setStateLocked(StateRunning, "")
	if s.pendingSummary != "" {
		// The saved turns' summary goes first, once: the user entry shows only what was typed.
		blocks = append([]ContentBlock{TextBlock(s.pendingSummary)}, blocks...)
		s.pendingSummary = ""
	}
	params := PromptParams{SessionID: s.agentSessionID, Prompt: blocks}
	conn := s.conn
	s.promptSent = false
	s.turnWG.Add(1) // under s.mu with closing false: Close's Wait comes after every Add
	s.unlock()
	go s.runTurn(conn, turn, params)
	return turn, nil
}

// runTurn sends a turn's session/prompt and ends the turn with the answer; it runs on a
// goroutine of its own from PromptWith.
func (s *Session) runTurn(conn *jsonrpc.Conn, turn int, params PromptParams) {
	defer s.turnWG.Done()
	var res PromptResult
	p, err := conn.Start(MethodSessionPrompt, params)
	// A Stop before the prompt was on the wire left the cancel to us (see Stop): it must follow
	// the prompt, or the agent would cancel nothing and run the whole turn.
	s.mu.Lock()
	s.promptSent = true
	cancel := err == nil && s.state == StateCancelling && s.tr.Turn() == turn
	id := s.agentSessionID
	s.unlock()
	if cancel {
		if cerr := conn.Notify(MethodSessionCancel, CancelParams{SessionID: id}); cerr != nil {
			s.cfg.Logf("session %s: send cancel to %s: %v", s.cfg.ID, s.cfg.AgentName, cerr)
		}
	}
	if err == nil {
		// No deadline and never cancelled by context: Stop sends session/cancel instead.
		err = p.Wait(context.Background(), &res)
	}
	s.endTurn(turn, res, err)
}

func (s *Session) idleErr() error {
	s.mu.Lock()
	defer s.unlock()
	return s.idleErrLocked()
}

// endTurn records the reply to a turn's prompt (or its failure) and returns to idle.
func (s *Session) endTurn(turn int, res PromptResult, err error) {
	if err != nil {
		err = s.explain(err)
	}
	s.mu.Lock()
	err = s.asAuthRequired(err, s.authMethods) // the Claude adapter asks for a login only on prompt
	s.loginNeeded = nil
	if authErr := (*AuthRequiredError)(nil); errors.As(err, &authErr) {
		s.loginNeeded = authErr
	}
	ts := TurnSummary{Turn: turn, StopReason: res.StopReason}
	cancelling := s.state == StateCancelling
	s.disarmHardStopLocked()
	switch {
	case s.hardStopped && s.stopIgnoredMsg != "":
		ts.StopReason, ts.Message = StopInterrupted, s.stopIgnoredMsg
	case s.hardStopped:
		ts.StopReason, ts.Message = StopInterrupted, "stopped hard: the agent's processes were killed"
	case cancelling:
		// A turn the user stopped is cancelled whatever the agent answered; its answer is journaled.
		ts.StopReason = StopCancelled
	case err != nil:
		ts.StopReason, ts.Message = StopError, err.Error()
		var data json.RawMessage
		var rpcErr *jsonrpc.Error
		if errors.As(err, &rpcErr) {
			data = rpcErr.Data
		}
		s.pushChange(s.tr.AddError(err.Error(), data, s.transport.StderrTail()))
	case ts.StopReason == "":
		ts.StopReason = StopEndTurn
	}
	// No card stays "pending" under a finished turn (docs/acp.md): after Stop the calls
	// that came late are cancelled too; otherwise the agent left them open.
	open := StatusIncomplete
	if ts.StopReason == StopCancelled || ts.StopReason == StopInterrupted {
		open = StatusCancelled
	}
	for _, c := range s.tr.CloseOpenTools(open) {
		s.pushChange(c)
	}
	reqs := s.takePermissionsLocked()
	s.turns = append(s.turns, ts)
	s.turnActive = false
	s.pushEvent(Event{Kind: EventTurnEnd, Turn: turn, StopReason: ts.StopReason, Message: ts.Message})
	if s.conn.Err() != nil {
		s.setStateLocked(StateExited, s.exitMessage(false))
	} else {
		s.setStateLocked(StateIdle, "")
	}
	s.stopIgnoredMsg = ""
	s.unlock()
	replyCancelled(reqs)
}
