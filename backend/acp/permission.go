package acp

import (
	"encoding/json"

	"agentdesk/backend/acp/schema"
)

// PermissionSummary is an open permission request as the UI shows it.
type PermissionSummary struct {
	RequestID  string          `json:"requestId"`
	ToolCallID string          `json:"toolCallId"` // the entry id of the tool card it guards
	Title      string          `json:"title"`
	Options    []OptionSummary `json:"options"`
	// ToolKind is the tool call's ACP kind (read, edit, execute...), "" when the agent gave none.
	ToolKind string `json:"toolKind,omitempty"`
	// RuleOptions are the rules the person may make from this request (Config.Rules' Offer).
	RuleOptions []RuleOption `json:"ruleOptions,omitempty"`
}

// What a permission option means (OptionSummary.Verdict, DecisionSummary.Verdict).
const (
	VerdictAllow  = "allow"
	VerdictReject = "reject"
)

// OptionSummary is a permission option as the UI shows it: the agent's id, name and kind, and
// what the kind means, so that no reader works it out again.
type OptionSummary struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Kind string `json:"kind"` // AllowOnce | AllowAlways | RejectOnce | RejectAlways, or the agent's own
	// Verdict is VerdictAllow or VerdictReject for ACP's kinds, "" for any other.
	Verdict string `json:"verdict,omitempty"`
	// Always: the option answers more than this request (allow_always, reject_always).
	Always bool `json:"always,omitempty"`
}

// OptionOf is the agent's option o with its meaning.
func OptionOf(id, name, kind string) OptionSummary {
	return OptionSummary{ID: id, Name: name, Kind: kind, Verdict: VerdictOf(kind),
		Always: kind == schema.AllowAlways || kind == schema.RejectAlways}
}

// VerdictOf is what an option kind means: VerdictAllow, VerdictReject, or "" for a kind ACP
// does not define.
func VerdictOf(kind string) string {
	switch kind {
	case schema.AllowOnce, schema.AllowAlways:
		return VerdictAllow
	case schema.RejectOnce, schema.RejectAlways:
		return VerdictReject
	}
	return ""
}

// DecisionSummary is how a permission request was closed, kept with the session so that a
// reopened or resynced view still shows "Allowed once" under its card (Snapshot.Decisions).
type DecisionSummary struct {
	RequestID  string `json:"requestId"`
	ToolCallID string `json:"toolCallId"` // the entry id of the tool card
	Outcome    string `json:"outcome"`    // selected | cancelled
	OptionID   string `json:"optionId,omitempty"`
	OptionName string `json:"optionName,omitempty"`
	OptionKind string `json:"optionKind,omitempty"`
	// Verdict is what the chosen option means: VerdictAllow, VerdictReject, or "" (cancelled,
	// or an option of a kind ACP does not define).
	Verdict   string `json:"verdict,omitempty"`
	DecidedBy string `json:"decidedBy,omitempty"` // DecidedBy*
	// RuleID and RuleLabel name the rule that decided (DecidedByRule).
	RuleID    string `json:"ruleId,omitempty"`
	RuleLabel string `json:"ruleLabel,omitempty"`
}

// DecisionOf is how the request sum was closed: outcome, the option chosen (its name, kind and
// verdict from those the request offered) and who decided. The caller adds the rule, if any.
func DecisionOf(sum PermissionSummary, outcome, optionID, decidedBy string) DecisionSummary {
	d := DecisionSummary{RequestID: sum.RequestID, ToolCallID: sum.ToolCallID, Outcome: outcome,
		OptionID: optionID, DecidedBy: decidedBy}
	for _, o := range sum.Options {
		if o.ID == optionID && outcome == "selected" {
			d.OptionName, d.OptionKind, d.Verdict = o.Name, o.Kind, VerdictOf(o.Kind)
		}
	}
	return d
}

// Who decided a permission request (Event.DecidedBy).
const (
	DecidedByUser   = "user"   // a person picked the option
	DecidedByRule   = "rule"   // one of the person's permission rules did (Config.Rules)
	DecidedByCancel = "cancel" // Stop, the end of the turn, or the agent's $/cancel_request
	DecidedByCLI    = "cli"    // the CLI's --permissions allow|reject did
)

// PermissionQuery is what a permission request asks, as Config.Rules judges it.
type PermissionQuery struct {
	Kind  string // the tool call's ACP kind ("" when the agent gave none)
	Title string
	// Name is the tool's own name (Entry.ToolName), "" when the agent sent none.
	Name string
	// Paths are the paths the tool call names in its ACP fields: its locations, then its diffs'
	// paths, each once, as the agent wrote them (absolute, relative to the session folder, or
	// `~/…`, `$HOME/…`, a `file:` URI, for the rules to resolve or refuse).
	Paths []string
	// Input is the rest of what the tool call carries, as the agent sent it: content that is
	// neither text nor a diff, then its raw input. The rules search it for every string a tool
	// could use as a path, and ask when they cannot read it.
	Input []json.RawMessage
	// Command is an execute call's command line, from its raw input ("" when it has none).
	Command string
	Options []OptionSummary
}

// RuleDecision is a rule's answer to a permission request: the agent's option it picks, the
// rule's id and its words ("reads in ~/src/app for Claude Code").
type RuleDecision struct {
	OptionID string
	RuleID   string
	Label    string
}

// RuleOption is a rule the person may make from a permission card ("always for this agent in
// this project"): its scope, its decision and what it will match, in words.
type RuleOption struct {
	Scope    string `json:"scope"`    // kind | folder | command
	Decision string `json:"decision"` // allow | reject
	Label    string `json:"label"`
}

// PermissionRules decides permission requests before anyone sees them (the hub's rules).
// Both methods are called on the session's inbound loop, without its lock, once per request;
// they must not block on anything slower than the file system and must not call the Session.
type PermissionRules interface {
	// Decide returns the rule's answer, or false when the person is to be asked. The option
	// must be one of q.Options.
	Decide(q PermissionQuery) (RuleDecision, bool)
	// Offer returns the rules the person may make from the request (none: nil).
	Offer(q PermissionQuery) []RuleOption
}

// PolicyOption picks the option an automatic policy answers with: "allow" picks allow_once and
// "reject" picks reject_once — never an *_always option implicitly (agents often list
// allow_always first). It returns "" when the agent offered no such option.
func PolicyOption(policy string, options []OptionSummary) string {
	want := map[string]string{"allow": schema.AllowOnce, "reject": schema.RejectOnce}[policy]
	for _, o := range options {
		if o.Kind == want {
			return o.ID
		}
	}
	return ""
}
