package hub

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"agentdesk/backend/acp"
	"agentdesk/backend/store"
)

// TestConcurrentContinuesOfOneSessionOneWins: continues of one saved session that race in one
// hub make it live once; every other is refused (ErrAlreadyLive), none replaces the live one.
func TestConcurrentContinuesOfOneSessionOneWins(t *testing.T) {
	ctx := context.Background()
	h, _, _, id := savedTwoRunSession(t)
	t.Setenv("SECOND", "1")
	t.Setenv("SUMMARY", "1")

	const n = 8
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		won      []*acp.Session
		refusals int
	)
	start := make(chan struct{})
	var states chan acp.State
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out, mine := stateEvents()
			<-start
			s, _, err := h.ContinueSaved(ctx, ContinueRequest{SessionID: id}, out)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				won, states = append(won, s), mine
			case errors.Is(err, ErrAlreadyLive):
				refusals++
			default:
				t.Errorf("continue: %v", err)
			}
		}()
	}
	close(start)
	wg.Wait()
	if len(won) != 1 || refusals != n-1 {
		t.Fatalf("%d continues made it live, %d were refused; want 1 and %d", len(won), refusals, n-1)
	}
	if live, err := h.Session(id); err != nil || live != won[0] {
		t.Fatalf("the live session is %p (%v), not the one that won (%p)", live, err, won[0])
	}
	waitState(t, states, acp.StateIdle) // its start is over before it is closed
}

// TestContinueLiveInAnotherProcessIsRefused: a session live in another agentdesk (a hub over
// another Store of the same file, as another process has) cannot be continued: the refusal
// names where it is live, its pid and since when; the owner's turns are all saved. Once the
// owner closes it, it can be continued, and CloseAll gives it up as Close does.
func TestContinueLiveInAnotherProcessIsRefused(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	path := filepath.Join(dir, "history.db")
	stA, stB := openTestStore(t, path), openTestStore(t, path)
	defer stA.Close()
	defer stB.Close()
	list := agentList{scriptAgent(t, dir, "a", twoRuns)}
	window, cli := New(stA, list, t.Logf), New(stB, list, t.Logf)
	window.SetOwnerName("the agentdesk window")
	cli.SetOwnerName("agentdesk run")
	defer window.CloseAll(ctx)
	defer cli.CloseAll(ctx)
	id := runTurns(t, window, dir, "first")
	t.Setenv("SECOND", "1")
	t.Setenv("SUMMARY", "1")

	out, states := stateEvents()
	s, _, err := window.ContinueSaved(ctx, ContinueRequest{SessionID: id}, out)
	if err != nil {
		t.Fatal(err)
	}
	waitState(t, states, acp.StateIdle)
	_, _, err = cli.ContinueSaved(ctx, ContinueRequest{SessionID: id}, acp.EmitterFunc(func(acp.Event) {}))
	want := fmt.Sprintf("session %s is live in the agentdesk window (pid %d) since ", id, os.Getpid())
	if !errors.Is(err, store.ErrOwned) || !strings.Contains(err.Error(), want) {
		t.Fatalf("continue of a session live elsewhere: %v, want %q", err, want)
	}
	if _, err := cli.Session(id); err == nil {
		t.Fatal("the refused continue left the session live in the second hub")
	}
	if _, err := s.Prompt("second"); err != nil {
		t.Fatal(err)
	}
	waitState(t, states, acp.StateRunning)
	waitState(t, states, acp.StateIdle)
	if err := window.CloseAll(ctx); err != nil {
		t.Fatal(err)
	}
	_, turns, _, err := stB.Session(ctx, id)
	if err != nil || len(turns) != 2 || turns[0].Prompt != "first" || turns[1].Prompt != "second" {
		t.Fatalf("saved turns %+v, %v", turns, err)
	}
	out, states = stateEvents()
	if _, _, err := cli.ContinueSaved(ctx, ContinueRequest{SessionID: id}, out); err != nil {
		t.Fatalf("continue once the window gave it up: %v", err)
	}
	waitState(t, states, acp.StateIdle) // its start is over before it is closed
}
