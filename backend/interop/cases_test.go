package interop

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/schema"
	"agentdesk/backend/changes"
	"agentdesk/backend/hub"
)

// flavours are the agents every case runs against (claude_test.go, codex_test.go).
var flavours []flavour

// each runs body once per flavour (those Wanted; a case the flavour cannot run skips, saying
// why), as a subtest named for it, with a tripwire of its own that
// must see no connection by the end.
func each(t *testing.T, body func(t *testing.T, f flavour, wire *Tripwire)) {
	for _, f := range flavours {
		if !Wanted(f.name) {
			continue
		}
		why := f.skip[t.Name()]
		t.Run(f.name, func(t *testing.T) {
			if why != "" {
				t.Skip(why)
			}
			wire, err := NewTripwire()
			if err != nil {
				t.Fatal(err)
			}
			defer wire.Close()
			body(t, f, wire)
			noEscape(t, wire)
		})
	}
}

// scripted starts f's model server with script and a rig with f's agent in mode against it.
// The script learns the rig's project folder through dir, set before the first prompt.
func scripted(t *testing.T, f flavour, wire *Tripwire, mode string, script func(dir string, a Ask) Answer) (*rig, server) {
	t.Helper()
	var dir atomic.Pointer[string]
	srv, url := f.serve(func(a Ask) Answer {
		if a.Side {
			return Say("Interop session")
		}
		return script(*dir.Load(), a)
	})
	t.Cleanup(srv.Close)
	r := newRig(t, f.agent(t, wire, url, mode), wire)
	dir.Store(&r.dir)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("the model server saw:\n%s", srv.Summary())
		}
	})
	return r, srv
}

// TestAReplyArrives: a prompt reaches the model through the agent, the model's words reach the
// transcript, the turn ends with end_turn and its receipt has the tokens the model reported.
func TestAReplyArrives(t *testing.T) { each(t, aReply) }

func aReply(t *testing.T, f flavour, wire *Tripwire) {
	r, _ := scripted(t, f, wire, f.ask, func(_ string, a Ask) Answer {
		return Say("Hello from the scripted model (" + a.Prompt + ").")
	})
	s := r.start()
	end := r.turn(s, "say hello", "")
	if end.StopReason != "end_turn" || !strings.Contains(agentText(s), "Hello from the scripted model (say hello).") {
		t.Fatalf("stop %q, transcript:\n%s", end.StopReason, dump(s))
	}
	if tk := end.Receipt.Tokens; tk == nil || tk.Output < int64(Usage.Output) {
		t.Errorf("the receipt's tokens are %+v, want the model's output tokens (%d) at least", tk, Usage.Output)
	}
}

// TestAnEditIsAskedForAllowedOrRejectedAndReverted: in a mode that asks, the agent asks before
// writing a file; allowed, the file is written, the change ledger lists it in the turn's
// receipt and reverting the turn removes it; rejected, nothing is written.
func TestAnEditIsAskedForAllowedOrRejectedAndReverted(t *testing.T) { each(t, anEdit) }

func anEdit(t *testing.T, f flavour, wire *Tripwire) {
	r, _ := scripted(t, f, wire, f.ask, func(dir string, a Ask) Answer {
		if a.HasResult {
			return Say("The tool said: " + a.ToolResult)
		}
		name := "allowed.txt"
		if strings.Contains(a.Prompt, "second") {
			name = "rejected.txt"
		}
		return f.write(filepath.Join(dir, name), "written by the model\n", true)
	})
	allowed, rejected := filepath.Join(r.dir, "allowed.txt"), filepath.Join(r.dir, "rejected.txt")
	s := r.start()
	end := r.turn(s, "first: write allowed.txt", "allow_once")
	if got, err := os.ReadFile(allowed); err != nil || string(got) != "written by the model\n" {
		t.Fatalf("allowed.txt: %q, %v\ntranscript:\n%s", got, err, dump(s))
	}
	if len(end.Receipt.Decisions) != 1 || end.Receipt.Changes == nil || !listed(end.Receipt.Changes.Files, "allowed.txt") {
		t.Errorf("the receipt has decisions %+v and changes %+v, want one decision and allowed.txt", end.Receipt.Decisions, end.Receipt.Changes)
	}

	end = r.turn(s, "second: write rejected.txt", "reject_once")
	if !absent(rejected) {
		t.Fatal("rejected.txt was written")
	}
	if len(end.Receipt.Decisions) != 1 || end.Receipt.Decisions[0].Kind != "reject_once" {
		t.Errorf("the second receipt's decisions are %+v, want one rejection", end.Receipt.Decisions)
	}

	plan, err := r.core.Hub.Revert(context.Background(), changes.RevertRequest{SessionID: s.ID(), Turn: 1, Scope: changes.ScopeTurn}, true)
	if err != nil || !plan.Done {
		t.Fatalf("revert turn 1: %+v, %v", plan, err)
	}
	if !absent(allowed) {
		t.Fatal("allowed.txt is still written after the revert")
	}
}

// absent reports whether path does not exist (the model's write was rejected or reverted).
func absent(path string) bool {
	_, err := os.Lstat(path)
	return os.IsNotExist(err)
}

// listed reports whether files has one at path.
func listed(files []schema.ChangedFile, path string) bool {
	for _, f := range files {
		if f.Path == path {
			return true
		}
	}
	return false
}

// TestACommandsOutputAndExitCode: a command the model runs (allowed) reaches the transcript
// with its output, and the receipt with its exit code.
func TestACommandsOutputAndExitCode(t *testing.T) { each(t, aCommand) }

func aCommand(t *testing.T, f flavour, wire *Tripwire) {
	r, _ := scripted(t, f, wire, f.ask, func(_ string, a Ask) Answer {
		if a.HasResult {
			return Say("The command said: " + a.ToolResult)
		}
		return f.run("echo interop-output; exit 3", true)
	})
	s := r.start()
	end := r.turn(s, "run the command", "allow_once")
	var shown bool
	for _, e := range tools(s) {
		shown = shown || strings.Contains(toolText(e), "interop-output")
	}
	if !shown {
		t.Errorf("no tool card shows the command's output:\n%s", dump(s))
	}
	cmds := end.Receipt.Commands
	if len(cmds) != 1 || cmds[0].ExitCode == nil || *cmds[0].ExitCode != 3 {
		t.Fatalf("the receipt's commands are %+v, want one that exited 3\n%s", cmds, dump(s))
	}
}

// toolText is what a tool card shows as text: its content's text and terminal output.
func toolText(e acp.Entry) string {
	var b strings.Builder
	for _, c := range e.Content {
		b.WriteString(c.Text)
		b.WriteString(c.Output)
	}
	b.Write(e.RawOutput)
	return b.String()
}

// TestAContinuedSessionRemembers: a session closed and continued (hub.ContinueSaved: the agent
// resumes or loads it) goes on with the earlier turns in the model's context.
func TestAContinuedSessionRemembers(t *testing.T) {
	each(t, func(t *testing.T, f flavour, wire *Tripwire) {
		r, srv := scripted(t, f, wire, f.ask, func(_ string, a Ask) Answer {
			if strings.Contains(a.Prompt, "which word") {
				return Say("You asked me to remember a word.")
			}
			return Say("Noted.")
		})
		s := r.start()
		r.turn(s, "remember the word kumquat", "")
		ctx := context.Background()
		id := s.ID()
		if err := r.core.Hub.Close(ctx, id); err != nil {
			t.Fatal(err)
		}
		if f.settle != nil {
			f.settle(t, r)
		}
		s, _, err := r.core.Hub.ContinueSaved(ctx, hub.ContinueRequest{SessionID: id, RawEvents: true}, r.listen())
		if err != nil {
			t.Fatal(err)
		}
		r.idle(s)
		if end := r.turn(s, "which word was it?", ""); end.StopReason != "end_turn" {
			t.Fatalf("the continued turn ended %q:\n%s", end.StopReason, dump(s))
		}
		seen := srv.Seen()
		last := seen[len(seen)-1]
		if !strings.Contains(string(last.Body), "kumquat") {
			t.Errorf("the continued turn's model request does not hold the earlier turn:\n%s", srv.Summary())
		}
		var boundary *acp.Boundary
		for _, e := range s.Snapshot().Entries {
			if e.Kind == acp.KindBoundary {
				boundary = e.Boundary
			}
		}
		if boundary == nil || (boundary.Kind != acp.BoundaryResumed && boundary.Kind != acp.BoundaryReplayed) {
			t.Errorf("continued as %+v, want the agent's own resume or load", boundary)
		}
	})
}
