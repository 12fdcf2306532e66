package main

import (
	"context"
	"fmt"
	"log"
	"slices"
	"strings"
	"time"

	"agentdesk/backend/acp"
	"agentdesk/backend/agents"
	"agentdesk/backend/hub"
)

// Logins is the bound service of agent logins: when a session failed to start because its
// agent needs a login, or its agent answered a prompt so (the Claude Code adapter asks only
// then), the page asks for the agent's methods (SessionAuth), runs one and starts again in a
// new session (StartSessionWithAuth), or opens a terminal for a terminal login
// (RunAuthInTerminal). Each verb waits at most authWait for a start still running. Secret
// values go one way, from the page to the store: what comes back says whether one is set.
type Logins struct {
	*core
}

// AuthPrompt is what the page shows for a session whose agent needs a login. Methods is empty
// when the session did not fail for that reason.
type AuthPrompt struct {
	SessionID      string           `json:"sessionId"`
	AgentID        string           `json:"agentId"`
	AgentName      string           `json:"agentName"`
	Message        string           `json:"message"` // the agent's own words
	Methods        []AuthMethodInfo `json:"methods"`
	CanRunTerminal bool             `json:"canRunTerminal"` // a terminal emulator was found
}

// AuthMethodInfo is one login method of the agent, with what the page needs to offer it.
type AuthMethodInfo struct {
	ID          string        `json:"id"`
	Name        string        `json:"name"`
	Description string        `json:"description,omitempty"`
	Type        string        `json:"type"`           // agent | env_var | terminal
	Vars        []AuthVarInfo `json:"vars,omitempty"` // env_var: the values to ask for
	Link        string        `json:"link,omitempty"` // env_var: where to get them
	Command     string        `json:"command,omitempty"`
}

// AuthVarInfo is a value an env_var login asks for. IsSet says a value is already stored (it
// is never sent to the page).
type AuthVarInfo struct {
	Name     string `json:"name"`
	Label    string `json:"label,omitempty"`
	Optional bool   `json:"optional"`
	Secret   bool   `json:"secret"`
	IsSet    bool   `json:"isSet"`
}

// authWait bounds how long SessionAuth waits for a start that is still running.
const authWait = 10 * time.Second

// SessionAuth returns the login methods of the agent of sessionID when its start, or its last
// prompt, failed because the agent needs a login, and an AuthPrompt without methods otherwise.
func (l *Logins) SessionAuth(sessionID string) (AuthPrompt, error) {
	ctx, cancel := context.WithTimeout(context.Background(), authWait)
	defer cancel()
	login, err := l.hub.AuthRequired(ctx, sessionID)
	if err != nil || login == nil {
		return AuthPrompt{SessionID: sessionID, Methods: []AuthMethodInfo{}}, err
	}
	ag, _ := agents.Find(l.catalog.List(), login.AgentID)
	p := AuthPrompt{SessionID: sessionID, AgentID: login.AgentID, AgentName: ag.Name, Methods: []AuthMethodInfo{},
		Message: l.catalog.Masker().Mask(login.Err.Err.Message)}
	_, termErr := agents.FindTerminal(agents.Getenv(l.catalog.BaseEnv(), "PATH"))
	p.CanRunTerminal = termErr == nil
	for _, m := range login.Err.Methods {
		info := AuthMethodInfo{ID: m.ID, Name: m.Name, Description: m.Description, Type: m.Kind(), Link: m.Link}
		switch m.Kind() {
		case acp.AuthEnvVar:
			for _, v := range m.Vars {
				info.Vars = append(info.Vars, AuthVarInfo{Name: v.Name, Label: v.Label, Optional: v.Optional,
					Secret: v.Secret == nil || *v.Secret, IsSet: l.catalog.IsSet(login.AgentID, v.Name)})
			}
		case acp.AuthTerminal:
			if cmd, args, env, err := l.terminalLogin(login.AgentID, m); err == nil {
				info.Command = agents.CommandLine(env, cmd, args)
			}
		}
		p.Methods = append(p.Methods, info)
	}
	return p, nil
}

// StartSessionWithAuth starts the agent of sessionID again, as a new session in the same folder,
// after a login with methodID (sessionID failed to start, or its last prompt failed, for want of
// one; a session that started stays as it is): an agent method logs in through authenticate; an
// env_var method first stores values (variable → value; a variable left out keeps its stored
// value) as secrets of the agent, which then starts with them in its environment; a terminal
// method only starts again, the user having run its command. Events follow as for StartSession.
func (l *Logins) StartSessionWithAuth(sessionID, methodID string, values map[string]string) (SessionInfo, error) {
	ctx, cancel := context.WithTimeout(context.Background(), authWait)
	defer cancel()
	login, err := l.hub.AuthRequired(ctx, sessionID)
	if err != nil {
		return SessionInfo{}, err
	}
	if login == nil {
		return SessionInfo{}, fmt.Errorf("session %s did not fail for want of a login: start it again", sessionID)
	}
	i := slices.IndexFunc(login.Err.Methods, func(m acp.AuthMethod) bool { return m.ID == methodID })
	if i < 0 {
		return SessionInfo{}, fmt.Errorf("%s offers no login method %q", login.Err.Agent, methodID)
	}
	m := login.Err.Methods[i]
	authMethod := m.ID
	switch m.Kind() {
	case acp.AuthTerminal:
		authMethod = "" // never authenticate: the user ran the command
	case acp.AuthEnvVar:
		keep := map[string]string{}
		for _, v := range m.Vars {
			val := values[v.Name]
			if val == "" && !v.Optional && !l.catalog.IsSet(login.AgentID, v.Name) {
				return SessionInfo{}, fmt.Errorf("give a value for %s", varLabel(v))
			}
			if val != "" {
				keep[v.Name] = val
			}
		}
		if err := l.catalog.SetLoginSecrets(login.AgentID, keep); err != nil {
			return SessionInfo{}, err
		}
	}
	_, info, err := l.hub.Start(hub.StartRequest{AgentID: login.AgentID, Cwd: login.Cwd, Dirs: login.Dirs, AuthMethod: authMethod},
		l.pageEmitter())
	if err != nil {
		return SessionInfo{}, forWindow(err)
	}
	if s, err := l.hub.Session(sessionID); err == nil && s.State() == acp.StateFailed {
		// A start that failed for want of a login is a step, not history: the new session
		// carries on. (One that started and then asked for a login keeps its turns.)
		if err := l.hub.Discard(ctx, sessionID); err != nil {
			log.Printf("agentdesk: %v", err)
		}
	}
	return SessionInfo(info), nil
}

// RunAuthInTerminal opens a terminal window running the command of the terminal login method
// methodID of the failed session sessionID. It returns once the window is open; the user then
// presses "Done, retry" (StartSessionWithAuth).
func (l *Logins) RunAuthInTerminal(sessionID, methodID string) error {
	_, err := l.runAuthInTerminal(sessionID, methodID)
	return err
}

// runAuthInTerminal is RunAuthInTerminal; the channel is closed when the window has closed.
func (l *Logins) runAuthInTerminal(sessionID, methodID string) (<-chan struct{}, error) {
	ctx, cancel := context.WithTimeout(context.Background(), authWait)
	defer cancel()
	login, err := l.hub.AuthRequired(ctx, sessionID)
	if err != nil || login == nil {
		return nil, fmt.Errorf("session %s does not need a login: %v", sessionID, err)
	}
	i := slices.IndexFunc(login.Err.Methods, func(m acp.AuthMethod) bool { return m.ID == methodID && m.Kind() == acp.AuthTerminal })
	if i < 0 {
		return nil, fmt.Errorf("%s offers no terminal login %q", login.Err.Agent, methodID)
	}
	cmd, args, env, err := l.terminalLogin(login.AgentID, login.Err.Methods[i])
	if err != nil {
		return nil, err
	}
	term, err := agents.FindTerminal(agents.Getenv(l.catalog.BaseEnv(), "PATH"))
	if err != nil {
		return nil, fmt.Errorf("%v: run the command yourself in a terminal, then press Done", err)
	}
	base := l.catalog.BaseEnv()
	if full, err := l.catalog.Find(login.AgentID); err == nil && full.Env != nil {
		base = full.Env // its secrets too: a login may need them
	}
	c := term.Command(agents.WithEnv(base, env), cmd, args)
	c.Dir = login.Cwd
	if err := c.Start(); err != nil {
		return nil, fmt.Errorf("could not open %s: %w", term.Path, err)
	}
	done := make(chan struct{})
	go func() { _ = c.Wait(); close(done) }()
	return done, nil
}

// terminalLogin is the exact command of a terminal login method: the agent's own program with
// the method's arguments, and the method's variables (NAME=VALUE, sorted).
func (l *Logins) terminalLogin(agentID string, m acp.AuthMethod) (string, []string, []string, error) {
	ag, err := agents.Find(l.catalog.List(), agentID)
	if err != nil {
		return "", nil, nil, err
	}
	cmd, args, err := agents.LoginCommand(ag, m.Args)
	var env []string
	for k, v := range m.Env {
		env = append(env, k+"="+v)
	}
	slices.Sort(env)
	return cmd, args, env, err
}

func varLabel(v acp.AuthVar) string {
	if strings.TrimSpace(v.Label) != "" {
		return v.Label + " (" + v.Name + ")"
	}
	return v.Name
}
