//go:build dev

package main

import (
	"log"
	"net/http"
	"os"
	"runtime/pprof"

	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
)

// e2eAgentScript is the end-to-end tests' seam into the agent the UI starts, compiled only into
// the dev-tag binary (build/bin/agentdesk-dev, which e2e drives; never into a production build,
// see e2e_agent.go). With AGENTDESK_E2E_AGENT_SCRIPT=FILE in the app's environment, which the app
// passes on to the agents it starts, the Demo agent plays that acptest script instead of its demo,
// as `demo-agent --script FILE` would: e2e/run.mjs uses it to drive a hostile agent and one that
// ignores Stop through the real UI.
func e2eAgentScript() string { return os.Getenv("AGENTDESK_E2E_AGENT_SCRIPT") }

// blankWindowPage is what the dev window shows under AGENTDESK_E2E_BLANK_WINDOW=1. The asset server
// still injects the Wails runtime into it, so the window reports DOM ready (app.domReady) as usual.
const blankWindowPage = `<!doctype html><html><head><meta charset="utf-8"><title>agentdesk (e2e)</title></head>` +
	`<body>The end-to-end tests drive this app in Chromium.</body></html>`

// e2eAssetMiddleware is the end-to-end tests' second seam, also dev-tag only. The dev binary opens
// its own window, which loads the whole app and renders every session event, next to the Chromium
// page a test drives. On a 2-core machine that copy takes about half the CPU, and it makes the
// perf script measure two pages at once. With AGENTDESK_E2E_BLANK_WINDOW=1 (e2e/lib/harness.mjs
// sets it), the window gets a blank page instead: its requests come through the wails:// scheme,
// and the browser's come through the dev server's http address, which is served as usual.
func e2eAssetMiddleware() assetserver.Middleware {
	if os.Getenv("AGENTDESK_E2E_BLANK_WINDOW") != "1" {
		return nil
	}
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if fromWindow(r) && (r.URL.Path == "/" || r.URL.Path == "/index.html") {
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				_, _ = w.Write([]byte(blankWindowPage))
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}

// fromWindow tells the webview's requests (wails://wails/...) from the dev server's.
func fromWindow(r *http.Request) bool {
	return r.URL.Scheme == "wails" || r.Host == "wails"
}

// e2eCPUProfile is the perf script's third seam, dev-tag only: with AGENTDESK_CPUPROFILE=FILE
// the app profiles its own CPU from start to shutdown, for `go tool pprof` (e2e/perf.mjs sets it
// under PERF_APP_PROFILE). It returns what stops the profile and writes the file.
func e2eCPUProfile() (stop func()) {
	path := os.Getenv("AGENTDESK_CPUPROFILE")
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err == nil {
		err = pprof.StartCPUProfile(f)
	}
	if err != nil {
		log.Printf("agentdesk: CPU profile %s: %v", path, err)
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		_ = f.Close()
	}
}
