package acp

import (
	"encoding/json"
	"strings"

	"agentdesk/backend/acp/schema"
)

// Plans by id (schema 1.35, unstable): plan_update carries one plan of several, keyed by planId,
// as items, Markdown or a file; plan_removed withdraws one. Each plan is one entry, placed by its
// first update and changed in place by the next ones; the older `plan` update (one plan a turn)
// is unchanged. A client receives them only when it advertises clientCapabilities.plan.
const (
	UpdatePlanUpdate  = "plan_update"
	UpdatePlanRemoved = "plan_removed"
)

// Bounds of a plan by id: its Markdown, its file's URI, its id.
const (
	maxPlanMarkdown = 64 << 10
	maxPlanURI      = 2 << 10
	maxPlanID       = 256
)

// PlanDoc is what a plan entry (KindPlan) of a plan by id holds beside its items (Entry.Plan):
// its id, its type (items, markdown, file), its Markdown or its file's URI (shown as text, never
// opened), and whether the agent removed it.
type PlanDoc struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Markdown string `json:"markdown,omitempty"`
	URI      string `json:"uri,omitempty"`
	Removed  bool   `json:"removed,omitempty"`
}

// planByID reduces plan_update and plan_removed; ok is false for one whose shape is not the
// expected one (no id, an unknown content type): the caller keeps it as an unknown entry.
func (t *Transcript) planByID(u schema.Update) (Change, bool) {
	var w struct {
		PlanID string `json:"planId"` // plan_removed
		Plan   *struct {
			Type    string             `json:"type"`
			PlanID  string             `json:"planId"`
			Entries []schema.PlanEntry `json:"entries"`
			Content *string            `json:"content"`
			URI     *string            `json:"uri"`
		} `json:"plan"`
	}
	if json.Unmarshal(u.Raw, &w) != nil {
		return Change{}, false
	}
	if u.Kind == UpdatePlanRemoved {
		id := strings.TrimSpace(w.PlanID)
		e := t.planEntry(id)
		if e == nil {
			return Change{}, false // nothing to remove: kept raw
		}
		e.PlanDoc.Removed = true
		c := e.clone()
		return Change{Entry: &c}, true
	}
	if w.Plan == nil || strings.TrimSpace(w.Plan.PlanID) == "" {
		return Change{}, false
	}
	doc := PlanDoc{ID: cutText(strings.TrimSpace(w.Plan.PlanID), maxPlanID), Type: w.Plan.Type}
	var items []schema.PlanEntry
	switch {
	case w.Plan.Type == "items":
		items = append([]schema.PlanEntry{}, w.Plan.Entries...)
	case w.Plan.Type == "markdown" && w.Plan.Content != nil:
		doc.Markdown = cutText(*w.Plan.Content, maxPlanMarkdown)
	case w.Plan.Type == "file" && w.Plan.URI != nil:
		doc.URI = plainLine(*w.Plan.URI, maxPlanURI)
	default:
		return Change{}, false
	}
	t.open = ""
	if e := t.planEntry(doc.ID); e != nil {
		e.PlanDoc, e.Plan = &doc, items
		c := e.clone()
		return Change{Entry: &c}, true
	}
	return t.add(&Entry{Kind: KindPlan, Plan: items, PlanDoc: &doc}), true
}

// planEntry is the entry of the plan by id, or nil: the newest one with that id, saved ones too.
func (t *Transcript) planEntry(id string) *Entry {
	for i := len(t.entries) - 1; i >= 0; i-- {
		if e := t.entries[i]; e.Kind == KindPlan && e.PlanDoc != nil && e.PlanDoc.ID == id {
			return e
		}
	}
	return nil
}
