package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestClaimRefusesASecondOwner: while one Store holds a session's lease, a claim by another
// Store of the same file (as another process's would) and a second claim by the same Store are
// refused with an *OwnedError that names the owner: what it is, its pid, since when. Another
// session is free, and once the lease is released the session can be claimed again.
func TestClaimRefusesASecondOwner(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "history.db")
	a, b := openTestAt(t, path), openTestAt(t, path)
	lease, err := a.Claim(ctx, "s1", "the agentdesk window")
	if err != nil {
		t.Fatal(err)
	}
	for name, st := range map[string]testStore{"another store": b, "the same store": a} {
		_, err := st.Claim(ctx, "s1", "agentdesk run")
		var owned *OwnedError
		if !errors.As(err, &owned) || !errors.Is(err, ErrOwned) || owned.Owner.PID != os.Getpid() || owned.Here != (name == "the same store") ||
			owned.Owner.Where != "the agentdesk window" || !owned.Owner.Since.Equal(lease.Owner().Since) {
			t.Fatalf("%s: claim of a held session: %v", name, err)
		}
		want := "session s1 is live in the agentdesk window (pid " + strconv.Itoa(os.Getpid()) + ") since "
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %q lacks %q", name, err, want)
		}
	}
	other, err := b.Claim(ctx, "s2", "agentdesk run")
	if err != nil {
		t.Fatalf("another session: %v", err)
	}
	if err := errors.Join(lease.Release(), other.Release()); err != nil {
		t.Fatal(err)
	}
	again, err := b.Claim(ctx, "s1", "agentdesk run")
	if err != nil {
		t.Fatalf("claim after release: %v", err)
	}
	if _, err := a.Claim(ctx, "s1", "the agentdesk window"); !errors.Is(err, ErrOwned) {
		t.Fatalf("the first store claims it back while the second holds it: %v", err)
	}
	if err := again.Release(); err != nil {
		t.Fatal(err)
	}
	if entries, err := os.ReadDir(path + ".owners"); err != nil || len(entries) != 0 {
		t.Errorf("lease files left after every release: %v, %v", entries, err)
	}
}

// TestClaimRaceHasOneWinner: many claims of one session at once, from two Stores, in claims
// and releases that interleave: never two holders at a time.
func TestClaimRaceHasOneWinner(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "history.db")
	stores := []testStore{openTestAt(t, path), openTestAt(t, path)}
	var (
		mu      sync.Mutex
		holders int
		wg      sync.WaitGroup
	)
	errs := make(chan error, 16)
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 20 {
				l, err := stores[i%2].Claim(ctx, "s", "agentdesk run")
				if errors.Is(err, ErrOwned) {
					continue
				}
				if err != nil {
					errs <- err
					return
				}
				mu.Lock()
				holders++
				n := holders
				mu.Unlock()
				if n > 1 {
					errs <- fmt.Errorf("%d holders at once", n)
				}
				mu.Lock()
				holders--
				mu.Unlock()
				if err := l.Release(); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

const ownerChildEnv = "STORE_TEST_OWNER"

// ownerChild is a child process that acts as another agentdesk with session "s" live: it
// claims it, starts turn 2 (turn 1 is saved), says "ready" and waits to be killed.
func ownerChild(path string) {
	ctx := context.Background()
	s, err := Open(ctx, path)
	if err == nil {
		_, err = s.Claim(ctx, "s", "agentdesk run")
	}
	if err == nil {
		s.Writer().StartTurn(Turn{SessionID: "s", Turn: 2, Prompt: "second"})
		err = s.Writer().Flush(ctx)
	}
	holdAsChild(err)
}

// TestClaimTakesOverFromADeadOwner: a session live in another process is refused, in words
// naming that process; once the process is killed (SIGKILL: no release) the lease is taken
// over, though another Store keeps the file open (so Open settled nothing), and the turn the
// dead owner left open is settled as interrupted.
func TestClaimTakesOverFromADeadOwner(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "history.db")
	st := openTestAt(t, path)
	st.Writer().CreateSession(Session{ID: "s", Title: "t"})
	st.Writer().StartTurn(Turn{SessionID: "s", Turn: 1, Prompt: "first"})
	st.Writer().EndTurn("s", 1, "end_turn", "", time.Time{})
	if err := st.Writer().Flush(ctx); err != nil {
		t.Fatal(err)
	}
	child, lines, stderr := startChild(t, ownerChildEnv, path)
	if !lines.Scan() || lines.Text() != "ready" {
		t.Fatalf("the other agentdesk said %q (%s)", lines.Text(), stderr)
	}
	_, err := st.Claim(ctx, "s", "the agentdesk window")
	want := fmt.Sprintf("session s is live in agentdesk run (pid %d) since ", child.Process.Pid)
	if !errors.Is(err, ErrOwned) || !strings.Contains(err.Error(), want) {
		t.Fatalf("claim of a session live in another process: %v, want %q", err, want)
	}
	if err := child.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	child.Wait()
	lease, err := st.Claim(ctx, "s", "the agentdesk window")
	if err != nil {
		t.Fatalf("claim after the owner died: %v", err)
	}
	defer lease.Release()
	_, turns, _, err := st.Session(ctx, "s")
	if err != nil || len(turns) != 2 || turns[1].EndedAt.IsZero() || turns[1].StopReason != OutcomeInterrupted ||
		turns[0].StopReason != "end_turn" {
		t.Fatalf("turns after the takeover: %+v, %v", turns, err)
	}
}
