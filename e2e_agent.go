//go:build !dev

package main

import "github.com/wailsapp/wails/v2/pkg/options/assetserver"

// e2eAgentScript is the end-to-end tests' seam, and it exists only in the dev-tag binary
// (e2e_agent_dev.go). A production build never plays a script in place of the Demo agent.
func e2eAgentScript() string { return "" }

// e2eAssetMiddleware is the dev-tag binary's blank-window seam (e2e_agent_dev.go); a production
// window always shows the app.
func e2eAssetMiddleware() assetserver.Middleware { return nil }

// e2eCPUProfile is the dev-tag binary's profiling seam (e2e_agent_dev.go); a production build
// never profiles itself.
func e2eCPUProfile() (stop func()) { return func() {} }
