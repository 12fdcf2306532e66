// Command agentdesk is a desktop client for ACP coding agents (Wails v2: Go backend, Svelte
// frontend in the system webview). The same binary has a headless command line (backend/cli)
// and serves the built-in Demo agent (`agentdesk demo-agent`). This package is the Wails edge
// only: the window's options, the App with its bound services (app*.go) and the build-tagged
// seams; the core it drives is backend/hub.
package main

import (
	"context"
	"embed"
	"fmt"
	"log"
	"os"

	"agentdesk/backend/cli"

	"agentdesk/backend/supervise"
	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/options/linux"
)

//go:embed all:frontend/dist
var assets embed.FS

//go:embed build/appicon.png
var icon []byte

func main() {
	// Every agent and terminal command runs under agentdesk-supervisor, found next to this binary;
	// without it every start fails with this error's words (the window's log says it at once).
	supervisorErr := supervise.EnableSupervisor(supervise.Beside())
	// A command of the command line runs headless; anything else starts the window (Wails' own
	// dev flags such as -devserver included).
	if cli.IsCommand(os.Args[1:]) {
		os.Exit(cli.Run(context.Background(), os.Args[1:], cli.Stdio{In: os.Stdin, Out: os.Stdout, Err: os.Stderr},
			cli.Options{AgentScript: e2eAgentScript()}))
	}
	if !hasDisplay() {
		fmt.Fprintln(os.Stderr, "agentdesk: no display found ($DISPLAY and $WAYLAND_DISPLAY are empty): start it from a desktop session or under xvfb-run, or use the command line (agentdesk help).")
		os.Exit(1)
	}
	if supervisorErr != nil {
		log.Printf("agentdesk: %v", supervisorErr)
	}
	app := NewApp()
	stopProfile := e2eCPUProfile()
	defer stopProfile()
	// Before the window: the page calls the bound methods as soon as it loads, and they need the
	// store, the agents and the login environment (captured in parallel, at most 5 s).
	if err := app.init(context.Background()); err != nil {
		log.Printf("agentdesk: %v", err)
	}
	err := wails.Run(&options.App{
		Title:            "agentdesk",
		Width:            app.window.Width,
		Height:           app.window.Height,
		MinWidth:         minWidth,
		MinHeight:        minHeight,
		WindowStartState: startState(app.window),
		AssetServer:      &assetserver.Options{Assets: assets, Middleware: e2eAssetMiddleware()},
		BackgroundColour: &options.RGBA{R: 24, G: 24, B: 27, A: 255},
		OnStartup:        app.startup,
		OnDomReady:       app.domReady,
		OnBeforeClose:    app.beforeClose,
		OnShutdown:       app.shutdown,
		Bind:             app.services(),
		// Files dropped on the window reach Go with their paths (app_drop.go). The webview's own
		// drop stays on: on Linux, Wails 2.9.2 delivers no native drop without it. The page's
		// drop handlers (lib/events.ts, installed at load) keep it from opening the file.
		DragAndDrop: &options.DragAndDrop{EnableFileDrop: true},
		Linux: &linux.Options{
			Icon:        icon,
			ProgramName: "agentdesk",
			// Set explicitly: a non-nil Linux options' zero value means "Always", which loses
			// paint under Xvfb (docs/development.md).
			WebviewGpuPolicy: linux.WebviewGpuPolicyNever,
		},
	})
	if err != nil {
		fmt.Fprintf(os.Stderr, "agentdesk: %v\n", err)
		os.Exit(1)
	}
}
