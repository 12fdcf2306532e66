package hub

import (
	"context"
	"os"
	"slices"
	"sync"

	"agentdesk/backend/acp"
	"agentdesk/backend/agents"
	"agentdesk/backend/rules"
	"agentdesk/backend/store"
)

// pausedKey is the preference that pauses every rule ("ask me for everything").
const pausedKey = "rules.paused"

// ruleBook is the person's permission rules as the sessions consult them: read from the store
// the first time they are needed, replaced whole by every edit (a session matching meanwhile
// keeps the list it read), written through to the store before they change here.
type ruleBook struct {
	st   *store.Store // nil: no history; there are no rules and none can be saved
	home string

	mu     sync.RWMutex
	loaded bool
	set    *rules.Set // compiled once per reload, never changed: an edit makes a new one
	paused bool
}

func newRuleBook(st *store.Store) *ruleBook {
	home, _ := os.UserHomeDir()
	return &ruleBook{st: st, home: home}
}

// current returns the rules, ready to match, and the pause, reading them from the store the
// first time. A failed read leaves the book empty (no rule fires) and is tried again next time.
func (b *ruleBook) current(ctx context.Context) (*rules.Set, bool, error) {
	b.mu.RLock()
	rs, paused, loaded := b.set, b.paused, b.loaded
	b.mu.RUnlock()
	if loaded || b.st == nil {
		return rs, paused, nil
	}
	return b.reload(ctx)
}

// reload reads the rules and the pause from the store, and compiles the rules.
func (b *ruleBook) reload(ctx context.Context) (*rules.Set, bool, error) {
	if b.st == nil {
		return nil, false, nil
	}
	stored, err := b.st.Rules(ctx)
	if err != nil {
		return nil, false, err
	}
	v, _, err := b.st.Preference(ctx, pausedKey)
	if err != nil {
		return nil, false, err
	}
	rs := make([]rules.Rule, 0, len(stored))
	for _, r := range stored {
		rs = append(rs, r.Rule)
	}
	set := rules.Compile(rs)
	b.mu.Lock()
	b.set, b.paused, b.loaded = set, v == "true", true
	b.mu.Unlock()
	return set, v == "true", nil
}

// sessionRules is one session's acp.PermissionRules: the book, judged with the session's agent
// and folders.
type sessionRules struct {
	book    *ruleBook
	agent   agents.Agent
	folders []string // the working folder first
	fired   func(ruleID string)
	logf    func(string, ...any)
}

var _ acp.PermissionRules = (*sessionRules)(nil)

func (s *sessionRules) request(q acp.PermissionQuery) rules.Request {
	return rules.Request{AgentID: s.agent.ID, Folders: s.folders, Home: s.book.home, Kind: q.Kind, Tool: q.Title, Name: q.Name,
		Paths: q.Paths, Input: q.Input, Command: q.Command}
}

// Decide answers q with the most specific rule that matches it, unless rules are paused or the
// agent offered no option of the rule's kind (allow_once, reject_once): then the person is asked.
func (s *sessionRules) Decide(q acp.PermissionQuery) (acp.RuleDecision, bool) {
	rs, paused, err := s.book.current(context.Background())
	if err != nil {
		s.logf("permission rules are not read (asking instead): %v", err)
		return acp.RuleDecision{}, false
	}
	if paused {
		return acp.RuleDecision{}, false
	}
	r := rs.Match(s.request(q))
	if r == nil {
		return acp.RuleDecision{}, false
	}
	id, ok := rules.OptionFor(r.Decision, ruleOptions(q.Options))
	if !ok {
		return acp.RuleDecision{}, false
	}
	if s.fired != nil {
		s.fired(r.ID)
	}
	return acp.RuleDecision{OptionID: id, RuleID: r.ID, Label: rules.Describe(*r, s.agent.Name, s.book.home)}, true
}

// Offer lists the rules the person may make from q, each decision the agent has an option for.
func (s *sessionRules) Offer(q acp.PermissionQuery) []acp.RuleOption {
	if s.book.st == nil {
		return nil // nowhere to keep a rule
	}
	var out []acp.RuleOption
	options := ruleOptions(q.Options)
	req := s.request(q)
	offered := rules.Offer(req) // once: it resolves the request's paths on disk
	for _, decision := range []string{rules.Allow, rules.Reject} {
		if _, ok := rules.OptionFor(decision, options); !ok {
			continue
		}
		for _, o := range offered {
			if answers(o.Rule, decision, req) {
				out = append(out, acp.RuleOption{Scope: o.Scope, Decision: decision,
					Label: rules.Describe(o.Rule, s.agent.Name, s.book.home)})
			}
		}
	}
	return out
}

// answers reports whether r, made with decision, would answer req itself: a card offers no rule
// that would not cover the request on it (an allow of a request that reaches outside the
// session's folders, or names what cannot be placed).
func answers(r rules.Rule, decision string, req rules.Request) bool {
	r.Decision = decision
	return rules.Match([]rules.Rule{r}, req) != nil
}

func ruleOptions(os []acp.OptionSummary) []rules.Option {
	out := make([]rules.Option, 0, len(os))
	for _, o := range os {
		out = append(out, rules.Option{ID: o.ID, Kind: o.Kind})
	}
	return out
}

// sessionRulesFor is the rules of a session of agent in dir (and dirs).
func (h *Hub) sessionRulesFor(agent agents.Agent, dir string, dirs []string) *sessionRules {
	s := &sessionRules{book: h.rules, agent: agent, folders: append([]string{dir}, slices.Clone(dirs)...), logf: h.logf}
	if h.store != nil && h.store.Writer() != nil { // a read-only history counts nothing
		w := h.store.Writer()
		s.fired = func(id string) { w.RuleFired(id, h.now()) }
	}
	return s
}
