package main

import (
	"context"
	"fmt"
	"log"
	"os"
	"sync"
	"time"

	"github.com/wailsapp/wails/v2/pkg/runtime"

	"agentdesk/backend/agents"
	"agentdesk/backend/hub"
	"agentdesk/backend/store"
)

// App is the window's side of the application: Wails' lifecycle hooks (startup, domReady,
// shutdown) and the bound services, which it creates over one shared core and main binds
// (services). App itself is not bound: the page calls the services, each a small set of verbs
// named for its domain (app_sessions.go, app_logins.go, app_history.go, app_agents.go,
// app_desktop.go). Every verb returns (T, error) or T; an error rejects the page's promise
// with its message, worded here once for a person. The services translate; the logic lives in
// backend/hub and the packages beneath it.
type App struct {
	*core
	opened    *hub.Core           // what init opened (hub.Open); shutdown closes it
	masking   *hub.HistoryMasking // the passes that mask secrets in the history; shutdown waits for them
	window    windowState         // the window's size and place, as saved (app_window.go)
	geometry  windowGeometry      // reads and places the window; nil: no window (tests)
	placeOnce sync.Once           // the first domReady places the window
	// onFileDrop registers startup's handler of files dropped on the window (runtime.OnFileDrop);
	// nil: none (tests).
	onFileDrop func(ctx context.Context, callback func(x, y int, paths []string))
	// quitSignals gives startup the signals that quit without asking (notifyQuitSignals); nil:
	// none watched (tests).
	quitSignals func() <-chan os.Signal

	sessions *Sessions
	logins   *Logins
	history  *History
	agents   *Agents
	desktop  *Desktop
	rules    *Rules
	registry *Registry
}

// core is the state the bound services share, each through a pointer to the same core. App
// fills it before the window opens (init) and sets ctx when it does (startup); after that the
// services only read it, so they need no lock of their own.
type core struct {
	ctx     context.Context // Wails' context once the window is up; the runtime calls need it
	emit    emitFunc        // runtime.EventsEmit; swapped in tests
	dbErr   error           // why history is unavailable, if it is
	notice  string          // what the user must know about the history (a file set aside)
	store   *store.Store    // nil when the history could not be opened (dbErr says why)
	hub     *hub.Hub
	catalog *agents.Catalog    // the agents that can be started, custom ones and secrets included
	health  *hub.HistoryHealth // whether writes to the history succeed
	quit    quitGuard          // whether a close must ask first (app_quit.go)
}

// emitFunc sends a Wails event to the page (runtime.EventsEmit's signature).
type emitFunc func(ctx context.Context, name string, data ...interface{})

// NewApp creates the App with the Wails runtime wired in; init opens the store.
func NewApp() *App {
	a := newApp(runtime.EventsEmit)
	a.history.saveDialog = runtime.SaveFileDialog
	a.rules.saveDialog, a.rules.openDialog = runtime.SaveFileDialog, runtime.OpenFileDialog
	a.sessions.folderDialog = runtime.OpenDirectoryDialog
	a.sessions.fileDialog = runtime.OpenFileDialog
	a.sessions.openURL = runtime.BrowserOpenURL
	a.onFileDrop = runtime.OnFileDrop
	a.quitSignals = notifyQuitSignals
	a.desktop.quitApp = runtime.Quit
	a.desktop.self = selfTestFromEnv()
	a.window, a.geometry = loadWindowState(), runtimeGeometry{}
	return a
}

// newApp creates an App whose services share one core emitting through emit, without the
// runtime's dialogs, quit or self-test (tests set what they need).
func newApp(emit emitFunc) *App {
	c := &core{emit: emit}
	return &App{core: c,
		sessions: &Sessions{core: c}, logins: &Logins{core: c}, history: &History{core: c},
		agents: &Agents{core: c}, desktop: &Desktop{core: c}, rules: &Rules{core: c},
		registry: &Registry{core: c}}
}

// services are what main binds: the page reaches each as window.go.main.<Type> and through
// the generated frontend/wailsjs/go/main/<Type>.js.
func (a *App) services() []interface{} {
	return []interface{}{a.sessions, a.logins, a.history, a.agents, a.desktop, a.rules, a.registry}
}

// startup is Wails' OnStartup hook;
// main has run init before: the runtime's ctx is all that is new here.
func (a *App) startup(ctx context.Context) {
	a.ctx = ctx
	fixSignalStacks() // WebKit's handlers, installed with the window (see signals_gtk.go)
	a.desktop.attention = newDesktopAttention(a.desktop)
	if a.onFileDrop != nil {
		a.onFileDrop(ctx, a.sessions.fileDropped) // app_drop.go
	}
	if a.quitSignals != nil {
		a.watchQuitSignals(ctx, a.quitSignals()) // app_signals.go
	}
}

// init opens the core (hub.Open: the history, the agents, the registry's installs, the
// masking, the ledger and the hub), the window's way: the login shell's environment captured,
// the history's masking in the background, its own damaged history file set aside. Without a
// usable database the app still runs live sessions in memory and says why history is
// unavailable.
func (a *App) init(ctx context.Context) error {
	c, err := hub.Open(ctx, hub.Options{Store: hub.StoreOptional, Recover: true, LoginShell: true, MaskInBackground: true,
		DescribeHistoryError: describeHistoryError, OwnerName: "the agentdesk window", Elicit: windowElicitModes, Logf: log.Printf})
	if err != nil { // StoreOptional: no error of the history's reaches here
		return err
	}
	a.opened = c
	a.store, a.notice, a.catalog, a.health, a.masking, a.hub = c.Store, c.Notice, c.Catalog, c.Health, c.Masking, c.Hub
	if a.notice != "" {
		log.Printf("agentdesk history: %s", a.notice)
	}
	if c.StoreErr != nil {
		a.dbErr = fmt.Errorf("history is unavailable (sessions are not being saved): %w", c.StoreErr)
	}
	if c.CatalogErr != nil {
		log.Printf("agentdesk: %v", c.CatalogErr)
	}
	if c.RegistryErr != nil { // the view still browses (the snapshot); installs fail saying why
		log.Printf("agentdesk: the registry has no folder: %v", c.RegistryErr)
	}
	if c.LedgerErr != nil {
		log.Printf("agentdesk: turns' changes will not be recorded: %v", c.LedgerErr)
	}
	a.registry.attach(c.Registry, c.Installer)
	a.agents.presets = c.Presets
	a.agents.attachPresets()
	c.WatchHistory(func(st hub.HistoryStatus) { a.emit(a.ctx, historyStatusEvent, HistoryStatus(st)) })
	return a.dbErr
}

// beforeClose is Wails' OnBeforeClose hook: the window remembers its size and place, and a
// quit that would cut turns short asks the page first (app_quit.go).
func (a *App) beforeClose(ctx context.Context) (prevent bool) {
	a.rememberWindow(ctx)
	return a.askBeforeQuit()
}

// shutdown is Wails' OnShutdown hook: no agent is left running, nothing queued is lost.
func (a *App) shutdown(ctx context.Context) {
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	a.desktop.attention.close()
	if a.opened == nil {
		return // init failed: nothing was opened
	}
	if err := a.opened.Close(ctx); err != nil {
		log.Printf("agentdesk: saving the last changes: %v", err)
	}
}

// flushHistory lets live sessions' queued changes land, so a list or a saved transcript read
// right after a turn ends is complete. A failure is logged: reading what is there still helps.
func (c *core) flushHistory() {
	if err := c.store.Writer().Flush(c.ctx); err != nil {
		log.Printf("agentdesk history: %v", err)
	}
}
