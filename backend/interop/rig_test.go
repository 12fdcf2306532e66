package interop

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"agentdesk/backend/acp"
	"agentdesk/backend/agents"
	"agentdesk/backend/hub"
	"agentdesk/backend/registry"
)

// bound is how long a wait on a real agent may take: node starting, the agent's own
// start-up and a few model round trips on a busy 2-core machine. Only a hung test reaches it.
const bound = 90 * time.Second

// rig is agentdesk's core as the front ends build it (hub.Open: history, catalog, change
// ledger, hub) over temp folders, with one agent: an installed one, started in an environment
// of its own that points it at a scripted model server and its proxy at the tripwire.
type rig struct {
	t      *testing.T
	core   *hub.Core
	dir    string // the project folder the sessions start in
	agent  agents.Agent
	wire   *Tripwire
	events chan acp.Event
}

// required reports whether missing agents fail the tests (make interop) instead of skipping.
func required() bool { return os.Getenv(RequireEnv) == "1" }

// installed is e's install, or skips the test (fails it under make interop) when it is not in
// the cache, or when AGENTDESK_INTEROP=0 (make test's go test step: its own step runs them).
func installed(t *testing.T, e registry.Entry) registry.Install {
	t.Helper()
	if os.Getenv(RequireEnv) == "0" {
		t.Skipf("%s=0: the real agents are left to make interop", RequireEnv)
	}
	in, err := Installed(e)
	if err != nil {
		if required() {
			t.Fatalf("%s is not installed: %v", e.Name, err)
		}
		t.Skipf("%s %s is not installed (make interop installs it): %v", e.Name, e.Version, err)
	}
	return in
}

// baseEnv is what every agent gets besides its own variables: a PATH that finds node, a
// locale, and the tripwire as its proxy. Nothing of the test process's environment (no real
// key, no real home) reaches the agent.
func baseEnv(home string, wire *Tripwire) []string {
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "LANG=C.UTF-8", "TERM=dumb",
		"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"), "XDG_CACHE_HOME=" + filepath.Join(home, ".cache"),
		"XDG_DATA_HOME=" + filepath.Join(home, ".local", "share"), "XDG_STATE_HOME=" + filepath.Join(home, ".local", "state")}
	if tmp := os.Getenv("TMPDIR"); tmp != "" {
		env = append(env, "TMPDIR="+tmp)
	}
	return append(env, wire.ProxyEnv()...)
}

// newRig opens the core over temp folders with agent (its Env complete: baseEnv and its own).
func newRig(t *testing.T, agent agents.Agent, wire *Tripwire) *rig {
	t.Helper()
	base := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(base, "config"))
	t.Setenv("XDG_DATA_HOME", filepath.Join(base, "data"))
	dir := filepath.Join(base, "project")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	core, err := hub.Open(context.Background(), hub.Options{DB: filepath.Join(base, "history.db"), Agents: []agents.Agent{agent}, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	r := &rig{t: t, core: core, dir: dir, agent: agent, wire: wire}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), bound)
		defer cancel()
		if err := core.Close(ctx); err != nil {
			t.Errorf("close the core: %v", err)
		}
	})
	return r
}

// listen gives the rig a new event channel and returns the emitter that feeds it: a session
// started with it is the only one the rig hears from then on (a closed one's late events go to
// the old channel).
func (r *rig) listen() acp.Emitter {
	ch := make(chan acp.Event, 1<<14)
	r.events = ch
	return acp.EmitterFunc(func(ev acp.Event) { ch <- ev })
}

// start starts a session of the rig's agent in its project folder and waits until it is idle.
func (r *rig) start() *acp.Session {
	r.t.Helper()
	s, _, err := r.core.Hub.Start(hub.StartRequest{AgentID: r.agent.ID, Cwd: r.dir, RawEvents: true}, r.listen())
	if err != nil {
		r.t.Fatal(err)
	}
	r.idle(s)
	return s
}

// idle waits until s is idle; a session that failed or exited fails the test with its stderr.
func (r *rig) idle(s *acp.Session) {
	r.t.Helper()
	ev := r.await("the session idle", func(ev acp.Event) bool {
		return ev.Kind == acp.EventState && (ev.State == acp.StateIdle || ev.State == acp.StateFailed || ev.State == acp.StateExited)
	})
	if ev.State != acp.StateIdle {
		r.t.Fatalf("the session is %s: %s\nstderr:\n%s", ev.State, ev.Message, s.Stderr())
	}
}

// await returns the first event from now on that matches.
func (r *rig) await(what string, match func(acp.Event) bool) acp.Event {
	r.t.Helper()
	timeout := time.After(bound)
	for {
		select {
		case ev := <-r.events:
			if match(ev) {
				return ev
			}
		case <-timeout:
			r.t.Fatalf("no %s within %s", what, bound)
		}
	}
}

// turn sends prompt and waits for the turn's end, answering each permission request with the
// first option of kind answer ("" : none is expected; one fails the test).
func (r *rig) turn(s *acp.Session, prompt, answer string) acp.Event {
	r.t.Helper()
	if _, err := s.Prompt(prompt); err != nil {
		r.t.Fatal(err)
	}
	return r.finish(s, answer)
}

// finish waits for the running turn's end, answering permissions as turn does.
func (r *rig) finish(s *acp.Session, answer string) acp.Event {
	r.t.Helper()
	for {
		ev := r.await("the turn's end", func(ev acp.Event) bool { return ev.Kind == acp.EventTurnEnd || ev.Kind == acp.EventPermission })
		if ev.Kind == acp.EventTurnEnd {
			return ev
		}
		if answer == "" {
			r.t.Fatalf("unexpected permission request %q (%s)", ev.Title, ev.ToolKind)
		}
		if err := s.AnswerPermission(ev.RequestID, optionOf(r.t, ev.Options, answer)); err != nil {
			r.t.Fatal(err)
		}
	}
}

// optionOf is the id of the first option of kind.
func optionOf(t *testing.T, opts []acp.OptionSummary, kind string) string {
	t.Helper()
	for _, o := range opts {
		if o.Kind == kind {
			return o.ID
		}
	}
	t.Fatalf("no option of kind %s in %+v", kind, opts)
	return ""
}

// tools are the tool entries of s's transcript.
func tools(s *acp.Session) []acp.Entry {
	var out []acp.Entry
	for _, e := range s.Snapshot().Entries {
		if e.Kind == acp.KindTool {
			out = append(out, e)
		}
	}
	return out
}

// agentText is the agent's messages in s's transcript, joined.
func agentText(s *acp.Session) string {
	var b strings.Builder
	for _, e := range s.Snapshot().Entries {
		if e.Kind == acp.KindAgent {
			b.WriteString(e.Text)
		}
	}
	return b.String()
}

// dump is s's transcript as JSON, for a failing test's message.
func dump(s *acp.Session) string {
	raw, _ := json.MarshalIndent(s.Snapshot().Entries, "", " ")
	return string(raw)
}

// noEscape fails t when the tripwire saw a connection: an agent tried to reach beyond
// 127.0.0.1 through its proxy.
func noEscape(t *testing.T, w *Tripwire) {
	t.Helper()
	if hits := w.Hits(); len(hits) > 0 {
		t.Errorf("the agent tried to reach %d address(es) beyond 127.0.0.1: %q", len(hits), hits)
	}
}

// atomicBool's once is true for its first caller only.
type atomicBool struct{ done atomic.Bool }

func (b *atomicBool) once() bool { return b.done.CompareAndSwap(false, true) }
