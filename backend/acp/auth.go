package acp

import (
	"encoding/json"
	"fmt"
	"strings"

	"agentdesk/backend/acp/jsonrpc"
)

// MethodAuthenticate logs the agent in with one of its auth methods.
const MethodAuthenticate = "authenticate"

// Auth method types (docs/acp.md). An absent type means "agent".
const (
	AuthAgent    = "agent"    // call authenticate; the agent does the rest (e.g. a browser login)
	AuthEnvVar   = "env_var"  // the agent reads credentials from its environment, then authenticate
	AuthTerminal = "terminal" // the user runs the agent's login command in a terminal; never authenticate
)

// AuthMethod is one way the agent offers to log in.
type AuthMethod struct {
	ID          string            `json:"id"`
	Name        string            `json:"name"`
	Description string            `json:"description,omitempty"`
	Type        string            `json:"type,omitempty"`
	Vars        []AuthVar         `json:"vars,omitempty"` // env_var
	Link        string            `json:"link,omitempty"` // env_var: where to get a key
	Args        []string          `json:"args,omitempty"` // terminal: arguments to the agent's own command
	Env         map[string]string `json:"env,omitempty"`  // terminal
}

// AuthVar is an environment variable an env_var method needs.
type AuthVar struct {
	Name     string `json:"name"`
	Label    string `json:"label,omitempty"`
	Optional bool   `json:"optional,omitempty"`
	Secret   *bool  `json:"secret,omitempty"` // default true
}

// Kind is the method's type with the default applied.
func (m AuthMethod) Kind() string {
	if m.Type == "" {
		return AuthAgent
	}
	return m.Type
}

// AuthRequiredError is returned by Start when the agent answers -32000 (authentication
// required). Methods are the agent's offers; the caller picks one and starts again with
// Config.AuthMethod (after putting env_var values in the agent's environment, or after the user
// ran a terminal method's command).
type AuthRequiredError struct {
	Agent   string
	Methods []AuthMethod
	Err     *jsonrpc.Error
}

var _ error = (*AuthRequiredError)(nil)

// Error lists the methods; how to pick one is the edge's to say (the window's login prompt,
// the command line's --auth).
func (e *AuthRequiredError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s needs you to log in (%s)", e.Agent, e.Err.Message)
	if len(e.Methods) == 0 {
		b.WriteString("; it offers no login method")
		return b.String()
	}
	b.WriteString("; it offers:")
	for _, m := range e.Methods {
		fmt.Fprintf(&b, "\n  %s (%s): %s", m.ID, m.Kind(), m.Name)
		switch m.Kind() {
		case AuthEnvVar:
			var names []string
			for _, v := range m.Vars {
				names = append(names, v.Name)
			}
			fmt.Fprintf(&b, " (set %s)", strings.Join(names, ", "))
		case AuthTerminal:
			fmt.Fprintf(&b, " (run the agent with: %s)", strings.Join(m.Args, " "))
		}
	}
	return b.String()
}

// Unwrap exposes the agent's error.
func (e *AuthRequiredError) Unwrap() error { return e.Err }

// decodeAuthMethods reads the methods an agent offers; one that does not decode is skipped.
func decodeAuthMethods(raw []json.RawMessage) []AuthMethod {
	out := []AuthMethod{}
	for _, r := range raw {
		var m AuthMethod
		if json.Unmarshal(r, &m) == nil && m.ID != "" {
			out = append(out, m)
		}
	}
	return out
}
