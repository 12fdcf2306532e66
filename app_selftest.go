package main

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"os"
	"strings"
	"time"

	"github.com/wailsapp/wails/v2/pkg/runtime"
)

// The real-window smoke test (scripts/smoke.sh): with AGENTDESK_SELFTEST=<report file>, the
// production binary drives its own UI through the real WebKitGTK window and native IPC, writes
// ok/FAIL lines, waits for the script's screenshot, and quits. Without the variable every part
// of it is inert, though Desktop.SelfTestDone stays bound.

//go:embed selftest.js
var selfTestJS string

type selfTest struct {
	report string // report file; "" = disabled
	cwd    string // the folder the self-test session runs in
}

func selfTestFromEnv() selfTest {
	return selfTest{report: os.Getenv("AGENTDESK_SELFTEST"), cwd: os.Getenv("AGENTDESK_SELFTEST_CWD")}
}

// domReady is Wails' OnDomReady hook: it starts the self-test when enabled.
func (a *App) domReady(ctx context.Context) {
	a.placeWindow(ctx)
	if n := fixSignalStacks(); n > 0 { // JavaScriptCore's, installed as the page started
		log.Printf("agentdesk: gave %d signal handlers of WebKit's an alternate stack", n)
	}
	if a.desktop.self.report == "" {
		return
	}
	cwd := a.desktop.self.cwd
	if cwd == "" {
		cwd = os.TempDir()
	}
	quoted, _ := json.Marshal(cwd)
	runtime.WindowExecJS(ctx, strings.ReplaceAll(selfTestJS, "__CWD__", string(quoted)))
}

// SelfTestDone receives the self-test's report: it writes it with a final ready-for-screenshot
// line, waits (at most 30 s) for the smoke script's screenshot marker, then quits. It fails
// unless the app was started for a self-test.
func (d *Desktop) SelfTestDone(report string) error {
	if d.self.report == "" {
		return errors.New("the self-test is not enabled")
	}
	if err := os.WriteFile(d.self.report, []byte(strings.TrimSpace(report)+"\nready-for-screenshot\n"), 0o600); err != nil {
		return fmt.Errorf("write self-test report: %w", err)
	}
	go func() {
		deadline := time.Now().Add(30 * time.Second)
		for time.Now().Before(deadline) {
			if _, err := os.Stat(d.self.report + ".shot-done"); err == nil {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
		d.quitNow()
	}()
	return nil
}
