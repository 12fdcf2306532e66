package hub

import (
	"context"
	"os"

	"agentdesk/backend/agents"
	"agentdesk/backend/store"
)

// The pieces Open (core.go) builds the core from: the history and the agents' environment. The
// window and the command line differ only where their users do (the window recovers its own
// damaged file and captures the login shell's environment; a terminal has that already), which
// Options say.

// openHistory opens the history at path, or at the default one (store.DefaultPath: $AGENTDESK_DB,
// else under $XDG_DATA_HOME) when path is "". A file that cannot be opened is never moved.
func openHistory(ctx context.Context, path string, opts ...store.Option) (*store.Store, error) {
	if path == "" {
		var err error
		if path, err = store.DefaultPath(); err != nil {
			return nil, err
		}
	}
	return store.Open(ctx, path, opts...)
}

// openHistoryForReading opens the history for a front end that only reads it: as openHistory, else
// read-only when it cannot be written (a read-only copy can still be listed and shown). The
// error is openHistory's.
func openHistoryForReading(ctx context.Context, path string) (*store.Store, error) {
	st, err := openHistory(ctx, path)
	if err == nil {
		return st, nil
	}
	if path == "" {
		path, _ = store.DefaultPath()
	}
	if ro, roErr := store.OpenReadOnly(ctx, path); roErr == nil {
		return ro, nil
	}
	return nil, err
}

// openDefaultHistory opens the default history for the window. A file the user named with
// AGENTDESK_DB is opened as it is: it may belong to something else, so it is never moved.
// agentdesk's own file, when damaged, is set aside and a new one made (store.OpenOrRecover);
// notice then says so, for the user.
func openDefaultHistory(ctx context.Context, opts ...store.Option) (st *store.Store, notice string, err error) {
	path, err := store.DefaultPath()
	if err != nil {
		return nil, "", err
	}
	if os.Getenv("AGENTDESK_DB") != "" {
		st, err = store.Open(ctx, path, opts...)
		return st, "", err
	}
	return store.OpenOrRecover(ctx, path, opts...)
}

// loginEnv is the agents' base environment for the window: the user's login-shell environment,
// so that an app started from the desktop menu finds node, npx and the agents' commands as a
// terminal would. On failure (no SHELL, a startup file that hangs; at most
// agents.LoginEnvTimeout) it logs why with logf and returns nil: agents then get this process's
// environment. AGENTDESK_NO_LOGIN_ENV=1 skips the capture.
func loginEnv(ctx context.Context, logf func(string, ...any)) []string {
	if os.Getenv("AGENTDESK_NO_LOGIN_ENV") == "1" {
		return nil
	}
	env, err := agents.CaptureLoginEnv(ctx, os.Getenv("SHELL"))
	if err != nil {
		logf("agentdesk: %v; agents start with agentdesk's own environment", err)
		return nil
	}
	return agents.AgentEnv(env)
}

// builtinAgents is the Demo agent (this binary: agents.Self) and the presets, resolved on the
// environment base (nil: this process's own). AGENTDESK_DEMO_PACE (e.g. "20ms") sets the Demo
// agent's pace, for tests and demos.
func builtinAgents(base []string) []agents.Agent {
	var demoArgs []string
	if p := os.Getenv("AGENTDESK_DEMO_PACE"); p != "" {
		demoArgs = []string{"--pace", p}
	}
	return agents.List(agents.Self(), demoArgs, base)
}
