package hub

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"

	"agentdesk/backend/acp"
	"agentdesk/backend/agents"
	"agentdesk/backend/rules"
	"agentdesk/backend/store"
)

// The rules' verbs: the window's Rules view and card, and `agentdesk rules`, edit the book
// through these. Each writes the store first and then the book, so a rule is in force once the
// call returns and survives a restart; none waits on an agent.

// ErrNoRuleStore says rules cannot be kept: there is no usable history database.
var ErrNoRuleStore = errors.New("permission rules are kept in the history database, which is unavailable")

// RuleInfo is a rule as the window and the command line list it.
type RuleInfo struct {
	ID        string `json:"id"`
	AgentID   string `json:"agentId"`
	AgentName string `json:"agentName"` // "" for any agent or an agent no longer in the catalog
	Folder    string `json:"folder"`
	Kind      string `json:"kind"`
	Tool      string `json:"tool"`
	Path      string `json:"path"`
	Command   string `json:"command"`
	Decision  string `json:"decision"` // allow | reject
	Disabled  bool   `json:"disabled"`
	// Label says what the rule matches ("reads in ~/src/app for Claude Code").
	Label       string `json:"label"`
	CreatedAt   string `json:"createdAt"`   // RFC 3339
	Fired       int    `json:"fired"`       // requests it answered
	LastFiredAt string `json:"lastFiredAt"` // RFC 3339, "" never
}

// RuleList is every rule, in the order they were made, and whether all are paused.
type RuleList struct {
	Paused bool       `json:"paused"`
	Rules  []RuleInfo `json:"rules"`
}

// Rules lists the rules with how often and when last each fired.
func (h *Hub) Rules(ctx context.Context) (RuleList, error) {
	if h.store == nil {
		return RuleList{Rules: []RuleInfo{}}, nil
	}
	stored, err := h.store.Rules(ctx)
	if err != nil {
		return RuleList{}, err
	}
	_, paused, err := h.rules.current(ctx)
	if err != nil {
		return RuleList{}, err
	}
	out := RuleList{Paused: paused, Rules: make([]RuleInfo, 0, len(stored))}
	for _, r := range stored {
		out.Rules = append(out.Rules, h.ruleInfo(r))
	}
	return out, nil
}

func (h *Hub) ruleInfo(r store.StoredRule) RuleInfo {
	name := h.agentName(r.AgentID)
	info := RuleInfo{ID: r.ID, AgentID: r.AgentID, AgentName: name, Folder: r.Folder, Kind: r.Kind, Tool: r.Tool,
		Path: r.Path, Command: r.Command, Decision: r.Decision, Disabled: r.Disabled,
		Label: rules.Describe(r.Rule, name, h.rules.home), CreatedAt: r.CreatedAt.Format(time.RFC3339), Fired: r.Fired}
	if !r.LastFiredAt.IsZero() {
		info.LastFiredAt = r.LastFiredAt.Format(time.RFC3339)
	}
	return info
}

// agentName is the catalog's name for agent id, "" when unknown (or id is "").
func (h *Hub) agentName(id string) string {
	lister, ok := h.agents.(interface{ List() []agents.Agent })
	if id == "" || !ok {
		return ""
	}
	for _, a := range lister.List() {
		if a.ID == id {
			return a.Name
		}
	}
	return ""
}

// SaveRule adds r (an empty ID gets a new one) or replaces the rule with its ID, and returns
// it as listed. A rule that does not validate is refused, with what to fix.
func (h *Hub) SaveRule(ctx context.Context, r rules.Rule) (RuleInfo, error) {
	if h.store == nil {
		return RuleInfo{}, ErrNoRuleStore
	}
	if err := r.Validate(); err != nil {
		return RuleInfo{}, err // before an id is made up: the error names the rule the person gave
	}
	if r.ID == "" {
		r.ID = uuid.NewString()
	}
	if err := h.store.SaveRules(ctx, []rules.Rule{r}); err != nil {
		return RuleInfo{}, err
	}
	return h.reloadedRule(ctx, r.ID)
}

// reloadedRule reloads the book and returns rule id as listed.
func (h *Hub) reloadedRule(ctx context.Context, id string) (RuleInfo, error) {
	if _, _, err := h.rules.reload(ctx); err != nil {
		return RuleInfo{}, err
	}
	stored, err := h.store.Rules(ctx)
	if err != nil {
		return RuleInfo{}, err
	}
	for _, s := range stored {
		if s.ID == id {
			return h.ruleInfo(s), nil
		}
	}
	return RuleInfo{}, fmt.Errorf("permission rule %q: %w", id, store.ErrNotFound)
}

// SetRuleDisabled turns rule id off (it never matches) or on again.
func (h *Hub) SetRuleDisabled(ctx context.Context, id string, disabled bool) (RuleInfo, error) {
	if h.store == nil {
		return RuleInfo{}, ErrNoRuleStore
	}
	rs, _, err := h.rules.current(ctx)
	if err != nil {
		return RuleInfo{}, err
	}
	for _, r := range rs.Rules() {
		if r.ID == id {
			r.Disabled = disabled
			return h.SaveRule(ctx, r)
		}
	}
	return RuleInfo{}, fmt.Errorf("permission rule %q: %w", id, store.ErrNotFound)
}

// DeleteRule deletes rule id; what it decided stays in the audit log, in its words.
func (h *Hub) DeleteRule(ctx context.Context, id string) error {
	if h.store == nil {
		return ErrNoRuleStore
	}
	err := h.store.DeleteRule(ctx, id)
	if _, _, rerr := h.rules.reload(ctx); err == nil {
		err = rerr
	}
	return err
}

// SetRulesPaused pauses every rule ("ask me for everything") or lets them answer again.
func (h *Hub) SetRulesPaused(ctx context.Context, paused bool) error {
	if h.store == nil {
		return ErrNoRuleStore
	}
	if err := h.store.SetPreference(ctx, pausedKey, fmt.Sprint(paused)); err != nil {
		return err
	}
	_, _, err := h.rules.reload(ctx)
	return err
}

// ExportRules returns every rule as a rules file (rules.Export).
func (h *Hub) ExportRules(ctx context.Context) ([]byte, error) {
	rs, _, err := h.rules.current(ctx)
	if err != nil {
		return nil, err
	}
	return rules.Export(rs.Rules()), nil
}

// ImportRules adds the rules of a rules file (rules.Import): one with an ID already kept
// replaces it, one without gets a new ID. It returns how many were imported; a file with one
// invalid rule imports none.
func (h *Hub) ImportRules(ctx context.Context, data []byte) (int, error) {
	if h.store == nil {
		return 0, ErrNoRuleStore
	}
	rs, err := rules.Import(data)
	if err != nil {
		return 0, err
	}
	for i := range rs {
		if rs[i].ID == "" {
			rs[i].ID = uuid.NewString()
		}
	}
	if err := h.store.SaveRules(ctx, rs); err != nil {
		return 0, err
	}
	_, _, err = h.rules.reload(ctx)
	return len(rs), err
}

// MakeRule makes, from the open permission request requestID of live session sessionID, the
// rule it offered for scope and decision (acp.RuleOption), and answers the request with the
// agent's own option for that decision, as the person's answer. The rule answers the requests
// that come after it, never one already shown.
func (h *Hub) MakeRule(ctx context.Context, sessionID, requestID, scope, decision string) (RuleInfo, error) {
	if h.store == nil {
		return RuleInfo{}, ErrNoRuleStore
	}
	sess, err := h.Session(sessionID)
	if err != nil {
		return RuleInfo{}, err
	}
	h.mu.Lock()
	started := h.starts[sessionID]
	h.mu.Unlock()
	q, sum, open := sess.OpenPermission(requestID)
	if !open || started == nil || started.rules == nil {
		return RuleInfo{}, &acp.PermissionError{RequestID: requestID, Err: acp.ErrPermissionNotOpen}
	}
	req := started.rules.request(q)
	var made *rules.Rule
	for _, o := range rules.Offer(req) {
		if o.Scope == scope && answers(o.Rule, decision, req) {
			made = &o.Rule
		}
	}
	optionID, ok := rules.OptionFor(decision, ruleOptions(sum.Options))
	if made == nil || !ok {
		return RuleInfo{}, fmt.Errorf("this request offers no %q rule to %s", scope, decision)
	}
	made.Decision = decision
	info, err := h.SaveRule(ctx, *made)
	if err != nil {
		return RuleInfo{}, err
	}
	if err := sess.Decide(requestID, optionID, acp.DecidedByUser); err != nil {
		return info, err // the rule stands; the request was answered meanwhile (or Stop)
	}
	return info, nil
}
