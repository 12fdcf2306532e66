package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/wailsapp/wails/v2/pkg/runtime"

	"agentdesk/backend/atomicfile"
	"agentdesk/backend/export"
	"agentdesk/backend/hub"
	"agentdesk/backend/rules"
	"agentdesk/backend/store"
)

// Rules is the permission rules' service: the Rules view lists, edits, pauses, exports and
// imports them, a permission card makes one, and the Audit view reads every decision. The
// logic is backend/hub's (rules.go, rules_edit.go, audit.go); this words its errors.
type Rules struct {
	*core
	saveDialog saveDialogFunc // runtime.SaveFileDialog; nil: no window
	openDialog openDialogFunc // runtime.OpenFileDialog; nil: no window
}

// openDialogFunc asks the user for a file to open: its path, or "" when they cancelled.
type openDialogFunc func(ctx context.Context, opts runtime.OpenDialogOptions) (string, error)

// List returns every rule, how often and when last each fired, and whether all are paused.
func (r *Rules) List() (hub.RuleList, error) {
	if r.store != nil {
		r.flushHistory() // the counts of rules that just fired
	}
	l, err := r.hub.Rules(r.ctx)
	return l, ruleError("read the rules", err)
}

// Save adds a rule (no id) or replaces the one with its id; a rule that does not validate is
// refused with what to fix.
func (r *Rules) Save(rule rules.Rule) (hub.RuleInfo, error) {
	info, err := r.hub.SaveRule(r.ctx, rule)
	return info, ruleError("save the rule", err)
}

// SetDisabled turns a rule off (it answers nothing) or on again.
func (r *Rules) SetDisabled(id string, disabled bool) (hub.RuleInfo, error) {
	info, err := r.hub.SetRuleDisabled(r.ctx, id, disabled)
	return info, ruleError("change the rule", err)
}

// Delete deletes a rule; the decisions it made stay in the audit log.
func (r *Rules) Delete(id string) error {
	return ruleError("delete the rule", r.hub.DeleteRule(r.ctx, id))
}

// SetPaused pauses every rule ("ask me for everything") or lets them answer again.
func (r *Rules) SetPaused(paused bool) error {
	return ruleError("pause the rules", r.hub.SetRulesPaused(r.ctx, paused))
}

// MakeFromRequest makes the rule an open permission card offered (its scope and decision) and
// answers that request with the agent's own once option for the decision.
func (r *Rules) MakeFromRequest(sessionID, requestID, scope, decision string) (hub.RuleInfo, error) {
	info, err := r.hub.MakeRule(r.ctx, sessionID, requestID, scope, decision)
	return info, ruleError("make the rule", err)
}

// AuditFilter narrows the audit log; empty fields narrow nothing.
type AuditFilter struct {
	SessionID string `json:"sessionId"`
	AgentID   string `json:"agentId"`
	Folder    string `json:"folder"`
	Verdict   string `json:"verdict"`   // allowed | rejected | cancelled
	DecidedBy string `json:"decidedBy"` // person | rule | stop | cli
	RuleID    string `json:"ruleId"`
	Since     string `json:"since"` // as `agentdesk usage --since`: 7d, 2006-01-02, RFC 3339
}

// Audit returns the decisions the filter keeps, newest first (at most 500).
func (r *Rules) Audit(f AuditFilter) ([]hub.AuditItem, error) {
	if r.store == nil {
		return nil, r.dbErr
	}
	since, err := store.ParseUsageSince(f.Since, time.Now())
	if err != nil {
		return nil, err
	}
	r.flushHistory()
	items, err := r.hub.Audit(r.ctx, store.AuditQuery{SessionID: f.SessionID, AgentID: f.AgentID, Folder: f.Folder,
		Outcome: f.Verdict, DecidedBy: f.DecidedBy, RuleID: f.RuleID, Since: since})
	return items, ruleError("read the audit log", err)
}

// SaveExport writes every rule as a rules file where the user chooses. It returns the path, or
// "" when they cancelled.
func (r *Rules) SaveExport() (string, error) {
	data, err := r.hub.ExportRules(r.ctx)
	if err != nil {
		return "", ruleError("export the rules", err)
	}
	if r.saveDialog == nil {
		return "", errors.New("there is no window to show a save dialog in: use `agentdesk rules export` instead")
	}
	path, err := r.saveDialog(r.ctx, runtime.SaveDialogOptions{Title: "Export permission rules",
		DefaultDirectory: exportFolder(""), DefaultFilename: "agentdesk-rules.json",
		Filters:              []runtime.FileFilter{{DisplayName: "Rules (*.json)", Pattern: "*.json"}},
		CanCreateDirectories: true})
	if err != nil || path == "" {
		return "", err
	}
	path = export.WithExtension(path, "json")
	if err := atomicfile.Write(path, data, 0o644); err != nil {
		return "", errors.New(export.DescribeSaveError(path, err))
	}
	return path, nil
}

// ImportFile reads a rules file the user chooses and adds its rules (one with an id already
// kept replaces it). It returns how many were imported (0 when they cancelled); a file with an
// invalid rule imports none and says which.
func (r *Rules) ImportFile() (int, error) {
	if r.openDialog == nil {
		return 0, errors.New("there is no window to show an open dialog in: use `agentdesk rules import` instead")
	}
	path, err := r.openDialog(r.ctx, runtime.OpenDialogOptions{Title: "Import permission rules",
		DefaultDirectory: exportFolder(""),
		Filters:          []runtime.FileFilter{{DisplayName: "Rules (*.json)", Pattern: "*.json"}}})
	if err != nil || path == "" {
		return 0, err
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, fmt.Errorf("could not read %s: %w", path, err)
	}
	n, err := r.hub.ImportRules(r.ctx, data)
	if err != nil {
		return 0, fmt.Errorf("could not import %s: %w", path, err)
	}
	return n, nil
}

// ruleError words a rules failure for the window: what could not be done and why.
func ruleError(what string, err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, hub.ErrNoRuleStore):
		return fmt.Errorf("could not %s: %w (see the history notice)", what, err)
	case errors.Is(err, store.ErrNotFound):
		return fmt.Errorf("could not %s: it no longer exists (another window or `agentdesk rules` changed it)", what)
	}
	return fmt.Errorf("could not %s: %w", what, err)
}
