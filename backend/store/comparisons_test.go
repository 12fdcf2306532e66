package store

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"
)

// TestAComparisonKeepsItsMembersInOrderAndTheirChecks: a comparison reads back with its members
// in the order given, each member knows it, a later check of a turn replaces the earlier one and
// the latest turn's is read; deleting a member takes its membership and checks with it.
func TestAComparisonKeepsItsMembersInOrderAndTheirChecks(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	w := s.Writer()
	for _, id := range []string{"b", "a", "alone"} {
		w.CreateSession(Session{ID: id, AgentID: "demo"})
	}
	at := time.UnixMilli(1_700_000_000_000)
	w.CreateComparison(Comparison{ID: "c1", Cwd: "/p", Prompt: "fix it", Check: "go test ./...", CreatedAt: at, Members: []string{"b", "a"}})
	w.SaveCheck("a", Check{Turn: 1, Command: "go test ./...", ExitCode: 1, Output: "FAIL", DurationMs: 5})
	w.SaveCheck("a", Check{Turn: 1, Command: "go test ./...", ExitCode: 0, Output: "ok", DurationMs: 6})
	w.SaveCheck("a", Check{Turn: 2, Command: "go test ./...", ExitCode: 2, Output: "again", DurationMs: 7})
	flush(t, s.Store)

	c, err := s.Comparison(ctx, "c1")
	want := Comparison{ID: "c1", Cwd: "/p", Prompt: "fix it", Check: "go test ./...", CreatedAt: at, Members: []string{"b", "a"}}
	if err != nil || !reflect.DeepEqual(c, want) {
		t.Fatalf("Comparison = %+v, %v; want %+v", c, err, want)
	}
	if id, ok, err := s.ComparisonOf(ctx, "a"); err != nil || !ok || id != "c1" {
		t.Fatalf("ComparisonOf(a) = %q, %v, %v", id, ok, err)
	}
	if _, ok, err := s.ComparisonOf(ctx, "alone"); err != nil || ok {
		t.Fatalf("ComparisonOf(alone) = %v, %v; want none", ok, err)
	}
	if got, ok, err := s.LatestCheck(ctx, "a"); err != nil || !ok || got.Turn != 2 || got.ExitCode != 2 {
		t.Fatalf("LatestCheck = %+v, %v, %v; want turn 2's", got, ok, err)
	}
	if _, err := s.Comparison(ctx, "nope"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Comparison(nope) = %v; want ErrNotFound", err)
	}
	if err := s.DeleteSession(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	if c, err := s.Comparison(ctx, "c1"); err != nil || !reflect.DeepEqual(c.Members, []string{"b"}) {
		t.Fatalf("after deleting a member: %+v, %v", c, err)
	}
	if _, ok, _ := s.LatestCheck(ctx, "a"); ok {
		t.Fatal("a deleted session's checks are still there")
	}
}
