package rules

// Option is one of the options an agent offers with a permission request (ACP's
// PermissionOption: optionId, name, kind).
type Option struct {
	ID   string
	Kind string // allow_once | allow_always | reject_once | reject_always
}

// OptionFor picks the agent's own option that carries out decision: its allow_once option for
// an allow, its reject_once option for a reject (a rule decides one request at a time; the
// agent is never told to remember). ok is false when the agent offers no option of that kind:
// the request is then asked, never guessed.
func OptionFor(decision string, options []Option) (id string, ok bool) {
	want := "allow_once"
	if decision == Reject {
		want = "reject_once"
	} else if decision != Allow {
		return "", false
	}
	for _, o := range options {
		if o.Kind == want {
			return o.ID, true
		}
	}
	return "", false
}
