package main

import (
	"errors"
	"fmt"
	"time"

	"github.com/wailsapp/wails/v2/pkg/runtime"

	"agentdesk/backend/atomicfile"
	"agentdesk/backend/export"
	"agentdesk/backend/store"
)

// The usage ledger's verbs of History: the window's Usage view reads it, and saves it as CSV
// through the save dialog. backend/store sums; backend/export writes the CSV.

// UsageReport is the usage ledger of a range, grouped one way (store.UsageLedger for the window).
type UsageReport struct {
	By string `json:"by"`
	// Since is where the range starts (RFC 3339), "" for all of the history.
	Since string `json:"since"`
	// Rows, Total and Silent are store.UsageLedger's, with secret values masked in the labels.
	Rows   []store.UsageRow `json:"rows"`
	Total  store.UsageRow   `json:"total"`
	Silent []string         `json:"silent"`
}

// UsageLedger sums the saved turns started since since (see store.ParseUsageSince: "", "all",
// "7d", "2006-01-02", RFC 3339) up to now, grouped by by: day, agent, project or session. Every
// label has the secret values agentdesk knows masked.
func (h *History) UsageLedger(since, by string) (UsageReport, error) {
	l, err := h.usage(since, by)
	if err != nil {
		return UsageReport{}, err
	}
	r := UsageReport{By: l.By, Rows: l.Rows, Total: l.Total, Silent: l.Silent}
	if !l.Since.IsZero() {
		r.Since = l.Since.Format(time.RFC3339)
	}
	return r, nil
}

// usage reads the ledger with its labels masked.
func (h *History) usage(since, by string) (store.UsageLedger, error) {
	if h.store == nil {
		return store.UsageLedger{}, h.dbErr
	}
	from, err := store.ParseUsageSince(since, time.Now())
	if err != nil {
		return store.UsageLedger{}, err
	}
	h.flushHistory()
	l, err := h.store.Usage(h.ctx, by, from, time.Time{})
	if err != nil {
		return store.UsageLedger{}, fmt.Errorf("could not read the usage ledger: %w", err)
	}
	mask := h.catalog.Masker()
	for i := range l.Rows {
		l.Rows[i].Label, l.Rows[i].Agent = mask.Mask(l.Rows[i].Label), mask.Mask(l.Rows[i].Agent)
	}
	for i := range l.Silent {
		l.Silent[i] = mask.Mask(l.Silent[i])
	}
	return l, nil
}

// SaveUsageCSV writes the ledger UsageLedger(since, by) returns as CSV (export.UsageCSV) where
// the user chooses in the system's save dialog (in the home folder, named after the grouping).
// It returns the path written, or "" with no error when the user cancelled; a failure says what
// went wrong and what to do.
func (h *History) SaveUsageCSV(since, by string) (string, error) {
	l, err := h.usage(since, by)
	if err != nil {
		return "", err
	}
	data, err := export.UsageCSV(h.catalog.Masker(), l)
	if err != nil {
		return "", err
	}
	if h.saveDialog == nil {
		return "", errors.New("there is no window to show a save dialog in: use `agentdesk usage` instead")
	}
	path, err := h.saveDialog(h.ctx, runtime.SaveDialogOptions{
		Title:                "Save usage as CSV",
		DefaultDirectory:     exportFolder(""),
		DefaultFilename:      export.FileName("agentdesk usage by "+l.By, "csv"),
		Filters:              []runtime.FileFilter{{DisplayName: "CSV (*.csv)", Pattern: "*.csv"}},
		CanCreateDirectories: true,
	})
	if err != nil {
		return "", fmt.Errorf("could not open the save dialog: %w", err)
	}
	if path == "" {
		return "", nil // cancelled
	}
	path = export.WithExtension(path, "csv")
	if err := atomicfile.Write(path, data, 0o644); err != nil {
		return "", errors.New(export.DescribeSaveError(path, err))
	}
	return path, nil
}
