package main

import (
	"context"
	"log"
	"os"
	"os/signal"
	"syscall"
)

// quitSignals are the signals that end agentdesk without asking: the system's logout or
// shutdown and `kill` (SIGTERM), a closed terminal (SIGHUP) and Ctrl-C in the terminal the app
// was started from. Wails handles the first one itself by closing the window, which
// beforeClose refuses while a turn runs (asking the page: nobody may be there to answer, and
// the system's SIGKILL follows), and it never listens again.
var quitSignals = []os.Signal{syscall.SIGTERM, syscall.SIGHUP, os.Interrupt}

// watchQuitSignals quits at the first signal on sigs as a confirmed quit (Desktop.quitNow): no
// question, every agent stopped with the stop ladder and the history saved by shutdown. It
// returns at once; the watch ends with ctx.
func (a *App) watchQuitSignals(ctx context.Context, sigs <-chan os.Signal) {
	go func() {
		select {
		case s := <-sigs:
			log.Printf("agentdesk: %v: quitting (stopping every agent and saving the history first)", s)
			a.desktop.quitNow()
		case <-ctx.Done():
		}
	}()
}

// notifyQuitSignals is the signal channel startup watches: quitSignals, as the process gets them.
func notifyQuitSignals() <-chan os.Signal {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, quitSignals...)
	return sigs
}
