package acp

// PermissionSummary is an open permission request as the UI shows it.
type PermissionSummary struct {
	RequestID  string          `json:"requestId"`
	ToolCallID string          `json:"toolCallId"` // the entry id of the tool card it guards
	Title      string          `json:"title"`
	Options    []OptionSummary `json:"options"`
}

// Who decided a permission request (Event.DecidedBy).
const (
	DecidedByUser   = "user"   // a person picked the option
	DecidedByRule   = "rule"   // an automatic policy did (the CLI's --permissions allow|reject)
	DecidedByCancel = "cancel" // Stop, the end of the turn, or the agent's $/cancel_request
)

// PolicyOption picks the option an automatic policy answers with: "allow" picks allow_once and
// "reject" picks reject_once — never an *_always option implicitly (agents often list
// allow_always first). It returns "" when the agent offered no such option.
func PolicyOption(policy string, options []OptionSummary) string {
	want := map[string]string{"allow": AllowOnce, "reject": RejectOnce}[policy]
	for _, o := range options {
		if o.Kind == want {
			return o.ID
		}
	}
	return ""
}
