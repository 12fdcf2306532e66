package acp

import (
	"context"
	"errors"
	"fmt"

	"agentdesk/backend/acp/jsonrpc"
	"agentdesk/backend/acp/schema"
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
		return &NotOfferedError{Agent: s.cfg.AgentName, What: "auth method", ID: id, Offered: ids}
	}
	if method.Kind() == AuthTerminal {
		return &TerminalLoginError{Method: id, Args: method.Args}
	}
	if err := s.conn.Call(ctx, MethodAuthenticate, map[string]string{"methodId": id}, nil); err != nil {
		return fmt.Errorf("log in to %s with %q: %w", s.cfg.AgentName, id, s.explain(err))
	}
	return nil
}

// asAuthRequired turns a -32000 answer into an *AuthRequiredError listing the methods.
func (s *Session) asAuthRequired(err error, methods []AuthMethod) error {
	var rpcErr *jsonrpc.Error
	if errors.As(err, &rpcErr) && rpcErr.Code == schema.CodeAuthRequired {
		return &AuthRequiredError{Agent: s.cfg.AgentName, Methods: methods, Err: rpcErr}
	}
	return err
}
