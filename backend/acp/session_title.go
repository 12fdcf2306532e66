package acp

import (
	"context"
	"fmt"
	"strings"
)

// MethodSessionSetTitle names the agent's session (schema 1.35, unstable).
const MethodSessionSetTitle = "session/set_title"

// MaxTitle bounds a title pushed to the agent and the one it answers with, in bytes.
const MaxTitle = 512

// SetTitle pushes the person's name for this session to the agent (session/set_title) when it
// advertises sessionCapabilities.title, so that its own list (session/list) shows it and it stops
// naming the session itself. It returns the title the agent stored (it may normalise it: trim or
// cut), cleaned for display (plainLine); pushed is false, with no error, when the agent does not
// offer it or the session is not open. A refusal is the agent's error; the person's rename stands
// either way (the caller keeps it in the history).
func (s *Session) SetTitle(ctx context.Context, title string) (stored string, pushed bool, err error) {
	title = cutText(strings.TrimSpace(title), MaxTitle)
	s.mu.Lock()
	conn, caps, id := s.conn, s.caps, s.agentSessionID
	s.unlock()
	if conn == nil || id == "" || title == "" || !caps.sessionCap("title") {
		return "", false, nil
	}
	var res struct {
		Title string `json:"title"`
	}
	if err := conn.Call(ctx, MethodSessionSetTitle, map[string]string{"sessionId": id, "title": title}, &res); err != nil {
		return "", false, fmt.Errorf("%s session/set_title: %w", s.cfg.AgentName, s.explain(err))
	}
	stored = plainLine(res.Title, MaxTitle)
	if stored == "" {
		stored = title // an answer without a title: the agent kept what it was sent
	}
	return stored, true, nil
}
