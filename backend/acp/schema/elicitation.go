package schema

// ElicitationCaps is clientCapabilities.elicitation: an empty object per supported mode.
type ElicitationCaps struct {
	Form *struct{} `json:"form,omitempty"`
	URL  *struct{} `json:"url,omitempty"`
}
