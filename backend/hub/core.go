package hub

import (
	"context"
	"errors"
	"path/filepath"

	"agentdesk/backend/acp"
	"agentdesk/backend/agents"
	"agentdesk/backend/changes"
	"agentdesk/backend/registry"
	"agentdesk/backend/store"
	"agentdesk/backend/worktree"
)

// The composition root: Open builds the core every front end drives, the window (package
// main) and each command of the command line (backend/cli) alike, so they list the same agents,
// mask the same secrets and save to the same history. Options carry only what differs
// between them.

// StoreMode says how Open opens the history.
type StoreMode int

const (
	// StoreOptional opens the history to write; when it cannot be opened the core runs without
	// one (Core.StoreErr says why): the window, run and chat, whose sessions still run.
	StoreOptional StoreMode = iota
	// StoreRequired opens the history to write, else Open fails: commands that edit it.
	StoreRequired
	// StoreReadable opens the history to write, else a copy it may only read, else Open fails:
	// commands that print from it.
	StoreReadable
	// StoreNone opens no history, and reads no secret until an agent starts: commands that
	// print nothing saved (agents, registry, completion).
	StoreNone
)

// Options are what differs between the front ends that Open a core.
type Options struct {
	// DB is the history's file; "" is the default one (store.DefaultPath).
	DB string
	// Store says how the history is opened, and whether the core runs without one.
	Store StoreMode
	// Recover sets agentdesk's own history file aside when it is damaged and makes a new one
	// (the window: a person cannot repair it from there). A file named by DB or $AGENTDESK_DB
	// is never moved.
	Recover bool
	// LoginShell captures the login shell's environment as the agents' base (loginEnv): the
	// window, started from a desktop menu, lacks it. A terminal's own environment already is
	// that, so the command line leaves it false.
	LoginShell bool
	// Agents are added to the built-in ones (the command line's --agent-cmd).
	Agents []agents.Agent
	// MaskInBackground returns before the catalog has learnt the stored secrets and the older
	// history is masked (the window opens at once; Core.Masking tracks the passes) and masks
	// every secret the catalog stores from then on. Else Open waits for both: the command
	// line's output is masked from its first byte.
	MaskInBackground bool
	// DescribeHistoryError words a failed write for the front end's person
	// (HistoryStatus.Problem); nil: the error's own text.
	DescribeHistoryError func(error) string
	// OwnerName names this process in another's refusal of a session (Hub.SetOwnerName).
	OwnerName string
	// Elicit is the elicitation modes the front end can put to a person (Hub.SetElicit).
	Elicit acp.ElicitModes
	// Logf receives the core's log lines: the hub's and the engine's (masked), failed writes
	// and the masking passes. nil: they are dropped.
	Logf func(string, ...any)
}

// Core is what Open builds: the history, the agents with their secrets, the registry's
// installs, the rules and the change ledger, and the hub over them. The front end reads its
// fields and must not replace them; Close ends it.
type Core struct {
	// Store is the history; nil when it could not be opened (StoreErr) or was not asked for.
	Store *store.Store
	// StoreErr is why the history could not be opened (StoreOptional only).
	StoreErr error
	// Notice tells the person about their history (a damaged file set aside, with Recover).
	Notice string
	// Catalog is every agent that can be started: built-in, installed from the registry and
	// custom, with their secrets. Its masker masks everything the core hands out.
	Catalog *agents.Catalog
	// CatalogErr is why the custom agents could not be read (only the others are listed).
	CatalogErr error
	// Env is the agents' base environment: the login shell's (LoginShell), else nil (this
	// process's own).
	Env []string
	// Registry is the ACP registry's index; Installer installs its agents (npm running on
	// Env) into the folder the catalog lists them from. Set Installer.Progress before sharing.
	Registry  *registry.Source
	Installer *registry.Installer
	// Presets installs the presets' pinned packages (npm running on Env) into the folder the
	// catalog resolves them from. Set Presets.Installer.Progress before sharing.
	Presets registry.Presets
	// RegistryErr is why the registry has no folder (no data folder): no agent is listed as
	// installed (presets included), and installs fail.
	RegistryErr error
	// Ledger records the turns' changes beside a history opened to write; nil without one.
	Ledger *changes.Ledger
	// LedgerErr is why the ledger could not be opened beside the history.
	LedgerErr error
	// Masking is the window's passes over the history (MaskInBackground), else nil.
	Masking *HistoryMasking
	// MaskErr is why the stored secrets or the older history's pass failed (not
	// MaskInBackground: the passes log theirs).
	MaskErr error
	// Health watches the history's writes (WatchHistory wires where its changes go).
	Health *HistoryHealth
	// Hub runs the sessions over all of the above, its rules kept in the history.
	Hub *Hub
}

// Open builds the core for a front end. It fails only when opts.Store requires a history that
// cannot be opened; every other problem is in the Core's *Err fields (it still works, with
// less) for the front end to tell. The registry's folder is registry.DefaultDir; agents.json and
// the secrets are in agents.ConfigDir.
func Open(ctx context.Context, opts Options) (*Core, error) {
	logf := opts.Logf
	if logf == nil {
		logf = func(string, ...any) {}
	}
	describe := opts.DescribeHistoryError
	if describe == nil {
		describe = func(err error) string { return err.Error() }
	}
	c := &Core{Health: NewHistoryHealth(describe)}
	env := make(chan []string, 1) // captured while the history opens
	if opts.LoginShell {
		go func() { env <- loginEnv(ctx, logf) }()
	} else {
		env <- nil
	}
	if err := c.openStore(ctx, opts, logf); err != nil {
		<-env
		c.Health.Close()
		return nil, err
	}
	c.Env = <-env
	c.openAgents(opts)
	c.maskHistory(ctx, opts, logf)
	c.Hub = New(c.Store, c.Catalog, logf)
	c.Hub.SetElicit(opts.Elicit)
	if opts.OwnerName != "" {
		c.Hub.SetOwnerName(opts.OwnerName)
	}
	if c.Store != nil && opts.Store != StoreReadable {
		if c.Ledger, c.LedgerErr = openLedger(c.Store); c.LedgerErr == nil {
			c.Hub.SetLedger(c.Ledger)
		}
		trees := worktree.NewManager(filepath.Join(filepath.Dir(c.Store.Path()), "worktrees"), worktree.CLI{})
		if err := trees.Recover(); err != nil { // an apply a crash interrupted: all its files, or none
			logf("agentdesk worktrees: %v", err)
		}
		c.Hub.SetWorktrees(trees)
	}
	return c, nil
}

// openStore opens the history as opts.Store says; failed writes are logged and reach Health.
func (c *Core) openStore(ctx context.Context, opts Options, logf func(string, ...any)) error {
	onErr := store.WithErrorHandler(func(err error) {
		logf("agentdesk history: %v", err)
		c.Health.Report(err)
	})
	var err error
	switch opts.Store {
	case StoreNone:
		return nil
	case StoreReadable:
		c.Store, err = openHistoryForReading(ctx, opts.DB) // it writes only the one-time pass, which returns its error
		return err
	}
	if opts.Recover && opts.DB == "" {
		c.Store, c.Notice, err = openDefaultHistory(ctx, onErr)
	} else {
		c.Store, err = openHistory(ctx, opts.DB, onErr)
	}
	if err != nil && opts.Store == StoreOptional {
		c.Store, c.StoreErr = nil, err
		return nil
	}
	return err
}

// openAgents opens the catalog of the default files with the built-in agents on c.Env, then
// opts.Agents, the agents installed from the registry and the presets' installed packages.
func (c *Core) openAgents(opts Options) {
	c.Catalog, c.CatalogErr = agents.OpenCatalog(append(builtinAgents(c.Env), opts.Agents...), c.Env)
	dir, err := registry.DefaultDir()
	c.RegistryErr = err // Registry still browses (the snapshot); installs fail saying why
	c.Registry, c.Installer = registry.Open(dir, c.Env)
	c.Presets = registry.Presets{Installer: registry.OpenPresets(dir, c.Env)}
	if err == nil {
		c.Catalog.SetInstalled(registry.CatalogSource{Installer: c.Installer})
		c.Catalog.SetPresetInstalls(c.Presets)
	}
}

// maskHistory has the catalog learn every stored secret and runs the one-time pass over the
// older history: in the background with opts.MaskInBackground, else now. StoreNone does
// neither.
func (c *Core) maskHistory(ctx context.Context, opts Options, logf func(string, ...any)) {
	switch {
	case opts.MaskInBackground:
		c.Masking = startHistoryMasking(ctx, c.Store, c.Catalog, logf)
	case opts.Store != StoreNone:
		_, c.MaskErr = learnAndMask(ctx, c.Store, c.Catalog)
	}
}

// learnAndMask teaches the catalog's masker every stored secret, then runs the one-time pass
// over st (nil: none) unless it has run (maskOldHistory: a keyring that did not answer leaves
// the pass to the next start, and is the error).
func learnAndMask(ctx context.Context, st *store.Store, cat *agents.Catalog) (int, error) {
	learnt := cat.LearnSecrets()
	if st == nil {
		return 0, nil
	}
	return maskOldHistory(ctx, st, cat.Masker(), func() error { return learnt })
}

// WatchHistory wires Health to the store and the hub, telling each change of the history's
// status to tell (see HistoryHealth.Set); without a history it does nothing.
func (c *Core) WatchHistory(tell func(HistoryStatus)) {
	if c.Store != nil {
		c.Health.Set(c.Store.Writer().Flush, c.Hub.Resave, tell)
	}
}

// Close stops watching the history, stops every agent, saving what is queued, waits for the
// masking passes and closes the history. The error is the last save's (Hub.CloseAll) or the
// history's close.
func (c *Core) Close(ctx context.Context) error {
	c.Health.Close()
	err := c.Hub.CloseAll(ctx)
	c.Masking.Wait() // a pass half done would leave values in clear until the next start
	if c.Store != nil {
		err = errors.Join(err, c.Store.Close())
	}
	return err
}
