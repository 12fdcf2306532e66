package acp_test

import (
	"context"
	"errors"
	"testing"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/acptest"
	"agentdesk/backend/acp/jsonrpc"
	"agentdesk/backend/acp/schema"
)

// TestAFailedStartAnswersThePermissionsAskedDuringIt: no permission request stays open in a
// failed session; the agent hears "cancelled", as from Stop.
func TestAFailedStartAnswersThePermissionsAskedDuringIt(t *testing.T) {
	outcome := make(chan string, 1)
	// The agent asks for a permission while it opens the session, then fails session/new.
	failNew := func(c *jsonrpc.Conn, req *jsonrpc.Request) {
		perm, err := askPermission(c, "setup", "Install the toolchain")
		if err != nil {
			outcome <- err.Error()
			return
		}
		// Written after the permission request: the client has parked it when this arrives.
		req.Reply(nil, &jsonrpc.Error{Code: schema.CodeInternalError, Message: "no toolchain"})
		var res schema.RequestPermissionResult
		if err := perm.Wait(context.Background(), &res); err != nil {
			outcome <- err.Error()
			return
		}
		outcome <- res.Outcome.Outcome
	}
	s, ev := newTestSession(t, func() acp.Transport {
		return acptest.ServeHandler(func(c *jsonrpc.Conn) jsonrpc.Handler { return &promptAgent{conn: c, onNew: failNew} })
	})
	var rpcErr *jsonrpc.Error
	if err := s.Start(context.Background()); !errors.As(err, &rpcErr) || rpcErr.Message != "no toolchain" {
		t.Fatalf("Start: %v, want the agent's error", err)
	}
	if got := within(t, outcome, "the permission asked during the start was never answered"); got != "cancelled" {
		t.Fatalf("the agent got %q, want cancelled", got)
	}
	snap := s.Snapshot()
	if snap.State != acp.StateFailed || len(snap.Permissions) != 0 {
		t.Fatalf("state %s with permissions %+v, want failed with none open", snap.State, snap.Permissions)
	}
	done := ev.waitFor(t, "permission_done", kind(acp.EventPermissionDone))
	if done.Decision.Outcome != "cancelled" || done.Decision.DecidedBy != acp.DecidedByCancel {
		t.Fatalf("permission_done %+v, want cancelled by cancel", done)
	}
}
