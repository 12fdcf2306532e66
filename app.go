package main

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"strings"
	"time"

	"github.com/wailsapp/wails/v2/pkg/runtime"

	"agentdesk/backend/acp"
	"agentdesk/backend/agents"
	"agentdesk/backend/export"
	"agentdesk/backend/hub"
	"agentdesk/backend/store"
)

// App is the only Wails-aware type: its exported methods are the bound verbs the frontend calls
// (each returns (T, error); an error rejects the promise with its message, made here once), and
// it emits session events to the page. It translates; the logic lives in backend/hub and the
// packages beneath it.
type App struct {
	ctx    context.Context
	emit   func(ctx context.Context, name string, data ...interface{}) // runtime.EventsEmit; swapped in tests
	quit   func(ctx context.Context)                                   // runtime.Quit
	dbErr  error                                                       // why history is unavailable, if it is
	notice string                                                      // what the user must know about the history (a file set aside)
	store  *store.Store
	hub    *hub.Hub
	agents *agents.Catalog    // the agents that can be started, custom ones and secrets included (app_agents.go)
	health *hub.HistoryHealth // whether writes to the history succeed
	self   selfTest

	attention *desktopAttention // OS notifications and the urgency hint (app_notify.go); nil = none

	saveDialog saveDialogFunc // runtime.SaveFileDialog (app_export.go); swapped in tests

	masking *hub.HistoryMasking // the passes that mask secrets in the history; shutdown waits for them
}

// NewApp creates the App with the Wails runtime wired in; startup opens the store.
func NewApp() *App {
	return &App{emit: runtime.EventsEmit, quit: runtime.Quit, saveDialog: runtime.SaveFileDialog, self: selfTestFromEnv()}
}

// startup is Wails' OnStartup hook;
// main has run init before: the runtime's ctx is all that is new here.
func (a *App) startup(ctx context.Context) {
	a.ctx = ctx
	fixSignalStacks() // WebKit's handlers, installed with the window (see signals_gtk.go)
	a.attention = newDesktopAttention(a)
}

// init opens the database and the hub. Without a usable database the app still runs live
// sessions in memory and says why history is unavailable.
func (a *App) init(ctx context.Context) error {
	if a.health == nil {
		a.health = hub.NewHistoryHealth(describeHistoryError)
	}
	loginEnv := make(chan []string, 1) // captured while the store opens
	go func() { loginEnv <- hub.LoginEnv(ctx, log.Printf) }()
	var err error
	if a.store, a.notice, err = hub.OpenDefaultStore(ctx, store.WithErrorHandler(a.historyError)); a.notice != "" {
		log.Printf("agentdesk history: %s", a.notice)
	}
	if err != nil {
		a.dbErr = fmt.Errorf("history is unavailable (sessions are not being saved): %w", err)
	}
	base := <-loginEnv
	var agentsErr error
	if a.agents, agentsErr = agents.OpenCatalog(hub.BuiltinAgents(base), base); agentsErr != nil {
		log.Printf("agentdesk: %v", agentsErr)
	}
	// Reads the stored secrets: exports of earlier sessions are masked too.
	a.masking = hub.StartHistoryMasking(ctx, a.store, a.agents, log.Printf)
	a.hub = hub.New(a.store, a.agents, log.Printf)
	if a.store != nil {
		a.health.Set(a.store.Writer().Flush, a.hub.Resave, func(st hub.HistoryStatus) { a.emit(a.ctx, historyStatusEvent, HistoryStatus(st)) })
	}
	return a.dbErr
}

// shutdown is Wails' OnShutdown hook: no agent is left running, nothing queued is lost.
func (a *App) shutdown(ctx context.Context) {
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	a.attention.close()
	a.health.Close()
	if err := a.hub.CloseAll(ctx); err != nil {
		log.Printf("agentdesk: saving the last changes: %v", err)
	}
	a.masking.Wait() // a pass half done would leave values in clear until the next start
	if a.store != nil {
		_ = a.store.Close()
	}
}

// HistoryNotice is what the user must be told about the history at start-up, or "": that it is
// unavailable (and sessions are not saved) and why, or that a damaged file was set aside.
func (a *App) HistoryNotice() string {
	if a.dbErr != nil {
		return a.dbErr.Error()
	}
	return a.notice
}

// DefaultFolder is the folder the session form starts with: the user's home folder.
func (a *App) DefaultFolder() string {
	if home, err := os.UserHomeDir(); err == nil {
		return home
	}
	dir, _ := os.Getwd()
	return dir
}

// SessionInfo describes a started session to the page: hub.SessionInfo, bound as this
// package's own type so the page's generated models keep their names.
type SessionInfo hub.SessionInfo

// StartSession starts agentID in cwd and returns at once; events follow under acp.EventName.
func (a *App) StartSession(agentID, cwd string) (SessionInfo, error) {
	_, info, err := a.hub.Start(hub.StartRequest{AgentID: agentID, Cwd: cwd}, a.pageEmitter())
	return SessionInfo(info), err
}

// pageEmitter sends a session's events to the page under acp.EventName. They arrive with the
// secrets masked: the hub masks a session's events before the history and the page see them
// (hub's live masking). A batch goes as one Wails event with one payload per session event (the page's
// listener receives them all, in order): during a stream that is one message per flush
// instead of one per event.
type pageEmitter struct {
	a *App
}

// pageEmitter returns a new session's emitter.
func (a *App) pageEmitter() *pageEmitter {
	return &pageEmitter{a: a}
}

// Emit sends one event.
func (p *pageEmitter) Emit(ev acp.Event) { p.a.emit(p.a.ctx, acp.EventName, ev) }

// EmitBatch sends evs as one message.
func (p *pageEmitter) EmitBatch(evs []acp.Event) {
	data := make([]interface{}, len(evs))
	for i, ev := range evs {
		data[i] = ev
	}
	p.a.emit(p.a.ctx, acp.EventName, data...)
}

// Prompt starts a turn; it returns when the prompt is sent, and the turn ends with turn_end.
func (a *App) Prompt(sessionID, text string) error {
	s, err := a.hub.Session(sessionID)
	if err != nil {
		return err
	}
	_, err = s.Prompt(text)
	return err
}

// Stop cancels the running turn of sessionID (a no-op when none runs).
func (a *App) Stop(sessionID string) error {
	s, err := a.hub.Session(sessionID)
	if err != nil {
		return err
	}
	return s.Stop()
}

// HardStop kills the agent of sessionID and its whole process group.
func (a *App) HardStop(sessionID string) error {
	s, err := a.hub.Session(sessionID)
	if err != nil {
		return err
	}
	return s.HardStop()
}

// ContinueSession restarts the exited agent of sessionID (after a hard stop or a crash) and
// reattaches to its session. It returns how: "resumed", "loaded" or "new session" (the agent
// could not reattach and starts without memory of earlier turns).
func (a *App) ContinueSession(sessionID string) (string, error) {
	s, err := a.hub.Session(sessionID)
	if err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(a.ctx, hub.StartTimeout)
	defer cancel()
	return s.Continue(ctx)
}

// AnswerPermission answers an open permission request with one of its options.
func (a *App) AnswerPermission(sessionID, requestID, optionID string) error {
	s, err := a.hub.Session(sessionID)
	if err != nil {
		return err
	}
	return s.AnswerPermission(requestID, optionID)
}

// Snapshot returns the live session's whole state at its last emitted seq.
func (a *App) Snapshot(sessionID string) (acp.Snapshot, error) {
	s, err := a.hub.Session(sessionID)
	if err != nil {
		return acp.Snapshot{}, err
	}
	return hub.MaskSnapshot(a.agents.Masker(), s.Snapshot()), nil
}

// HistoryItem is a saved session in the history list.
type HistoryItem struct {
	ID        string `json:"id"`
	Title     string `json:"title"`
	AgentName string `json:"agentName"`
	Cwd       string `json:"cwd"`
	CreatedAt string `json:"createdAt"`
	UpdatedAt string `json:"updatedAt"`
	Outcome   string `json:"outcome"`
	Turns     int    `json:"turns"`
	Snippet   string `json:"snippet,omitempty"`
}

// historyListLimit bounds ListHistory: the page says when a list is cut there (its LIST_LIMIT).
const historyListLimit = 200

// ListHistory lists saved sessions, newest first, or those matching query (full-text, best
// first); at most historyListLimit of them.
func (a *App) ListHistory(query string) ([]HistoryItem, error) {
	if a.store == nil {
		return nil, a.dbErr
	}
	a.flushHistory()
	rows, err := a.store.ListSessions(a.ctx, query, historyListLimit)
	if err != nil {
		return nil, fmt.Errorf("could not read the history: %w", err)
	}
	out := make([]HistoryItem, 0, len(rows))
	for _, r := range rows {
		out = append(out, HistoryItem{ID: r.ID, Title: a.agents.Masker().Mask(r.Title), AgentName: r.AgentName, Cwd: r.Cwd,
			CreatedAt: r.CreatedAt.Format(time.RFC3339), UpdatedAt: r.UpdatedAt.Format(time.RFC3339),
			Outcome: r.Outcome, Turns: r.Turns, Snippet: hub.MaskSnippet(a.agents.Masker(), r.Snippet)})
	}
	return out, nil
}

// OpenHistory returns a saved session in the shape of a live snapshot.
func (a *App) OpenHistory(id string) (acp.Snapshot, error) {
	if a.store == nil {
		return acp.Snapshot{}, a.dbErr
	}
	a.flushHistory()
	s, turns, entries, err := a.store.Session(a.ctx, id)
	if err != nil {
		return acp.Snapshot{}, openError(id, err)
	}
	return hub.MaskSnapshot(a.agents.Masker(), hub.SnapshotFromStore(s, turns, entries)), nil
}

// HistoryPart is a run of a saved session's entries (OpenHistoryPart): a snapshot holding only
// those entries and the turns they belong to, where they start among the session's entries,
// and how many entries the session has.
type HistoryPart struct {
	Snapshot acp.Snapshot `json:"snapshot"`
	From     int          `json:"from"`
	Total    int          `json:"total"`
}

// OpenHistoryPart is OpenHistory for `limit` entries from position `from`, or for the last
// `limit` when from is negative. The page opens a saved session with its end, so that even a
// very long one shows at once, then reads the earlier parts one by one, so that no step holds
// the page long. Errors are OpenHistory's.
func (a *App) OpenHistoryPart(id string, from, limit int) (HistoryPart, error) {
	if a.store == nil {
		return HistoryPart{}, a.dbErr
	}
	a.flushHistory()
	p, err := a.store.SessionPart(a.ctx, id, from, limit)
	if err != nil {
		return HistoryPart{}, openError(id, err)
	}
	snap := hub.MaskSnapshot(a.agents.Masker(), hub.SnapshotFromStore(p.Session, p.Turns, p.Entries))
	return HistoryPart{Snapshot: snap, From: p.From, Total: p.Total}, nil
}

// openError is the user's message for a saved session that could not be read.
func openError(id string, err error) error {
	if errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("session %s is not in the history (it may have been deleted)", id)
	}
	return fmt.Errorf("could not open session %s: %w", id, err)
}

// flushHistory lets live sessions' queued changes land, so a list or a saved transcript read
// right after a turn ends is complete. A failure is logged: reading what is there still helps.
func (a *App) flushHistory() {
	if err := a.store.Writer().Flush(a.ctx); err != nil {
		log.Printf("agentdesk history: %v", err)
	}
}

// ExportHistory renders a saved session as Markdown ("md") or JSON ("json").
func (a *App) ExportHistory(id, format string) (string, error) {
	if a.store == nil {
		return "", a.dbErr
	}
	a.flushHistory()
	s, turns, entries, err := a.store.Session(a.ctx, id)
	if err != nil {
		return "", fmt.Errorf("could not export session %s: %w", id, err)
	}
	return export.Render(a.agents.Masker(), s, turns, entries, format)
}

// DeleteHistory deletes a saved session with its transcript and journal. A live session keeps
// running; only its history goes.
func (a *App) DeleteHistory(id string) error {
	if a.store == nil {
		return a.dbErr
	}
	a.hub.Detach(id) // a live session keeps running, unsaved: its rows are gone
	if err := a.store.DeleteSession(a.ctx, id); err != nil {
		return fmt.Errorf("could not delete session %s: %w", id, err)
	}
	return nil
}

// RenameHistory gives a saved (or live) session the user's title; the agent's titles no longer
// replace it.
func (a *App) RenameHistory(id, title string) error {
	if a.store == nil {
		return a.dbErr
	}
	title = strings.TrimSpace(title)
	if title == "" {
		return errors.New("a session needs a title: type one, or press Esc to keep the old one")
	}
	a.hub.Renamed(id)
	if err := a.store.RenameSession(a.ctx, id, a.agents.Masker().Mask(title)); err != nil { // saved masked, as all text
		return fmt.Errorf("could not rename session %s: %w", id, err)
	}
	return nil
}
