package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/runtime"

	"agentdesk/backend/agents"
	"agentdesk/backend/atomicfile"
)

// The window's size, position and maximised state, kept between runs in window.json beside
// the agents' configuration: main opens the window at the saved size (maximised when it was),
// domReady moves it where it was, and beforeClose saves it.

// The window's default and smallest sizes (main's options).
const (
	defaultWidth, defaultHeight = 1280, 800
	minWidth, minHeight         = 800, 600
	maxSide                     = 16384 // a saved side beyond this is damage, not a window
)

// windowState is what window.json holds. Width and Height are the size when not maximised;
// Placed says X and Y were saved.
type windowState struct {
	Width     int  `json:"width"`
	Height    int  `json:"height"`
	X         int  `json:"x"`
	Y         int  `json:"y"`
	Placed    bool `json:"placed"`
	Maximised bool `json:"maximised"`
}

// windowGeometry reads and places the window (the Wails runtime's calls; tests fake it).
type windowGeometry interface {
	Size(ctx context.Context) (w, h int)
	Position(ctx context.Context) (x, y int)
	IsMaximised(ctx context.Context) bool
	SetPosition(ctx context.Context, x, y int)
}

// runtimeGeometry is windowGeometry over the Wails runtime.
type runtimeGeometry struct{}

var _ windowGeometry = runtimeGeometry{}

func (runtimeGeometry) Size(ctx context.Context) (int, int) { return runtime.WindowGetSize(ctx) }
func (runtimeGeometry) Position(ctx context.Context) (int, int) {
	return runtime.WindowGetPosition(ctx)
}
func (runtimeGeometry) IsMaximised(ctx context.Context) bool { return runtime.WindowIsMaximised(ctx) }
func (runtimeGeometry) SetPosition(ctx context.Context, x, y int) {
	runtime.WindowSetPosition(ctx, x, y)
}

// windowStatePath is window.json's path.
func windowStatePath() (string, error) {
	dir, err := agents.ConfigDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "window.json"), nil
}

// loadWindowState reads window.json; a missing, unreadable or damaged file (or one with sizes no
// window has) gives the defaults, and the window opens as on a first run.
func loadWindowState() windowState {
	def := windowState{Width: defaultWidth, Height: defaultHeight}
	path, err := windowStatePath()
	if err != nil {
		return def
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return def
	}
	var st windowState
	if err := json.Unmarshal(data, &st); err != nil || st.Width < minWidth || st.Height < minHeight ||
		st.Width > maxSide || st.Height > maxSide {
		return def
	}
	return st
}

// saveWindowState writes st to window.json atomically.
func saveWindowState(st windowState) error {
	path, err := windowStatePath()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("save the window's size: %w", err)
	}
	data, _ := json.Marshal(st) // plain ints and bools always marshal
	if err := atomicfile.Write(path, data, 0o644); err != nil {
		return fmt.Errorf("save the window's size: %w", err)
	}
	return nil
}

// placeWindow moves the window where it was last time (domReady, once: a reload of the page
// leaves the window where the user has it): the window manager opened it wherever it likes.
func (a *App) placeWindow(ctx context.Context) {
	a.placeOnce.Do(func() {
		if a.geometry != nil && a.window.Placed && !a.window.Maximised {
			a.geometry.SetPosition(ctx, a.window.X, a.window.Y)
		}
	})
}

// rememberWindow saves the window's size, position and maximised state (beforeClose). A
// maximised window keeps the size it had before, so it comes back to that when unmaximised.
func (a *App) rememberWindow(ctx context.Context) {
	if a.geometry == nil {
		return
	}
	st := a.window
	st.Maximised = a.geometry.IsMaximised(ctx)
	if !st.Maximised {
		st.Width, st.Height = a.geometry.Size(ctx)
		st.X, st.Y = a.geometry.Position(ctx)
		st.Placed = true
	}
	if st.Width < minWidth || st.Height < minHeight {
		return // a window being torn down answers 0×0
	}
	a.window = st
	if err := saveWindowState(st); err != nil {
		log.Printf("agentdesk: %v", err)
	}
}

// startState is how the window opens: maximised when it was closed so.
func startState(st windowState) options.WindowStartState {
	if st.Maximised {
		return options.Maximised
	}
	return options.Normal
}
