package export

import (
	"cmp"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"agentdesk/backend/acp"
	"agentdesk/backend/agents"
	"agentdesk/backend/hub"
	"agentdesk/backend/store"
)

// Export formats of a saved session, as the window and `agentdesk show --format` name them.
const (
	Markdown = "md"
	JSON     = "json"
)

// exported is the JSON export of a session: its facts and its transcript as the UI renders it.
type exported struct {
	ID             string                `json:"id"`
	Title          string                `json:"title"`
	AgentID        string                `json:"agentId"`
	AgentName      string                `json:"agentName"`
	AgentSessionID string                `json:"agentSessionId,omitempty"`
	Cwd            string                `json:"cwd"`
	Outcome        string                `json:"outcome"`
	CreatedAt      time.Time             `json:"createdAt"`
	UpdatedAt      time.Time             `json:"updatedAt"`
	Turns          []acp.TurnSummary     `json:"turns"`
	Entries        []acp.Entry           `json:"entries"`
	Decisions      []acp.DecisionSummary `json:"decisions"` // the permission requests answered, in order
}

// Render renders a saved session (its rows, as store.Store.Session and store.Store.Permissions
// return them) as Markdown or JSON; every entry renders itself (acp.EntryMarkdown), a tool call
// is followed by how its permission request was answered, and each turn ends with its stop
// reason and its receipt (both formats). Every secret value mask knows is masked (agents.Mask)
// in the result, whatever the format: an export is text that leaves agentdesk (nil mask: none
// is known). An unknown format is an error that names the known ones.
func Render(mask *agents.Masker, s store.Session, turns []store.Turn, entries []store.Entry, perms []store.Permission, format string) (string, error) {
	out, err := renderSession(s, turns, entries, perms, format)
	return mask.Mask(out), err
}

func renderSession(s store.Session, turns []store.Turn, entries []store.Entry, perms []store.Permission, format string) (string, error) {
	snap := hub.SnapshotFromStore(s, turns, entries)
	snap.Decisions = hub.Decisions(perms)
	switch format {
	case JSON:
		raw, err := json.MarshalIndent(exported{ID: s.ID, Title: s.Title, AgentID: s.AgentID, AgentName: s.AgentName,
			AgentSessionID: s.AgentSessionID, Cwd: s.Cwd, Outcome: s.Outcome, CreatedAt: s.CreatedAt, UpdatedAt: s.UpdatedAt,
			Turns: snap.Turns, Entries: snap.Entries, Decisions: snap.Decisions}, "", "  ")
		if err != nil {
			return "", fmt.Errorf("export session %s as JSON: %w", s.ID, err)
		}
		return string(raw) + "\n", nil
	case Markdown:
		return exportMarkdown(s, snap), nil
	}
	return "", fmt.Errorf("unknown export format %q: use md or json", format)
}

func exportMarkdown(s store.Session, snap acp.Snapshot) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", strings.Join(strings.Fields(s.Title), " "))
	fmt.Fprintf(&b, "- Agent: %s\n- Folder: `%s`\n- Started: %s\n- Outcome: %s\n\n",
		s.AgentName, s.Cwd, s.CreatedAt.UTC().Format(time.RFC3339), s.Outcome)
	ends := map[int]acp.TurnSummary{}
	for _, t := range snap.Turns {
		ends[t.Turn] = t
	}
	decided := map[string][]acp.DecisionSummary{}
	for _, d := range snap.Decisions {
		decided[d.ToolCallID] = append(decided[d.ToolCallID], d)
	}
	for i := range snap.Entries {
		e := &snap.Entries[i]
		b.WriteString(acp.EntryMarkdown(e))
		b.WriteString("\n")
		for _, d := range decided[e.ID] {
			fmt.Fprintf(&b, "> Permission: %s\n\n", decisionWords(d))
		}
		last := i == len(snap.Entries)-1 || snap.Entries[i+1].Turn != e.Turn
		if t, ok := ends[e.Turn]; ok && last && e.Turn > 0 {
			fmt.Fprintf(&b, "---\n\n*Turn %d ended: %s*", t.Turn, t.StopReason)
			if t.Message != "" {
				fmt.Fprintf(&b, " (%s)", strings.Join(strings.Fields(t.Message), " "))
			}
			b.WriteString("\n\n")
			b.WriteString(receiptMarkdown(t.Receipt))
		}
	}
	return b.String()
}

// decisionWords says how a permission request was answered, as the window's card does: "Allowed
// once (by you)", "Allowed once by rule: reads in ~/src/app for Claude Code", "Cancelled".
func decisionWords(d acp.DecisionSummary) string {
	if d.Outcome != store.PermissionSelected {
		return "Cancelled"
	}
	words := map[string]string{"allow_once": "Allowed once", "allow_always": "Allowed always",
		"reject_once": "Rejected", "reject_always": "Rejected always"}[d.OptionKind]
	if words == "" {
		words = "Selected: " + cmp.Or(d.OptionName, d.OptionID)
	}
	switch d.DecidedBy {
	case acp.DecidedByUser:
		words += " (by you)"
	case acp.DecidedByRule:
		words += " by rule: " + cmp.Or(d.RuleLabel, "a rule since deleted")
	case acp.DecidedByCLI:
		words += " (by --permissions)"
	}
	return words
}
