package acp

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"agentdesk/backend/acp/jsonrpc"
)

// authenticate runs the chosen method (Config.AuthMethod) before the session opens. Terminal
// methods are not called: the user runs their command, then starts again without --auth.
func (s *Session) authenticate(ctx context.Context, methods []AuthMethod) error {
	id := s.cfg.AuthMethod
	var method *AuthMethod
	for i := range methods {
		if methods[i].ID == id {
			method = &methods[i]
		}
	}
	if method == nil {
		ids := make([]string, len(methods))
		for i, m := range methods {
			ids[i] = m.ID
		}
		return worded(ErrNotOffered, "%s offers no auth method %q (it offers: %s)", s.cfg.AgentName, id, strings.Join(ids, ", "))
	}
	if method.Kind() == AuthTerminal {
		return worded(ErrTerminalLogin, "auth method %q is a terminal login: run the agent's command with %q in a terminal, then start again without choosing a method",
			id, strings.Join(method.Args, " "))
	}
	if err := s.conn.Call(ctx, MethodAuthenticate, map[string]string{"methodId": id}, nil); err != nil {
		return fmt.Errorf("log in to %s with %q: %w", s.cfg.AgentName, id, s.explain(err))
	}
	return nil
}

// asAuthRequired turns a -32000 answer into an *AuthRequiredError listing the methods.
func (s *Session) asAuthRequired(err error, methods []AuthMethod) error {
	var rpcErr *jsonrpc.Error
	if errors.As(err, &rpcErr) && rpcErr.Code == CodeAuthRequired {
		return &AuthRequiredError{Agent: s.cfg.AgentName, Methods: methods, Err: rpcErr}
	}
	return err
}
