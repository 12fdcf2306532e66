package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestUsageLedgerAndCSVFromTheHistory(t *testing.T) {
	dir := t.TempDir()
	dialog := &fakeDialog{path: filepath.Join(dir, "usage")}
	a, _ := savedSessionApp(t, "fix the build", dir, dialog)
	r, err := a.history.UsageLedger("all", "agent")
	if err != nil {
		t.Fatal(err)
	}
	if r.By != "agent" || r.Since != "" || len(r.Rows) != 1 || r.Rows[0].Key != "demo" || r.Rows[0].Label != "Demo agent" ||
		r.Rows[0].Turns != 1 || r.Total.Turns != 1 || len(r.Silent) != 1 || r.Silent[0] != "Demo agent" {
		t.Errorf("UsageLedger = %+v", r)
	}
	if r, err := a.history.UsageLedger("7d", "session"); err != nil || r.Since == "" || len(r.Rows) != 1 || r.Rows[0].Label != "fix the build" {
		t.Errorf("UsageLedger 7d by session = %+v, %v", r, err)
	}
	if _, err := a.history.UsageLedger("soon", "agent"); err == nil || !strings.Contains(err.Error(), "soon") {
		t.Errorf("bad since: %v", err)
	}
	if _, err := a.history.UsageLedger("", "week"); err == nil || !strings.Contains(err.Error(), "week") {
		t.Errorf("bad grouping: %v", err)
	}

	path, err := a.history.SaveUsageCSV("30d", "project")
	if err != nil || path != filepath.Join(dir, "usage.csv") {
		t.Fatalf("SaveUsageCSV = %q, %v", path, err)
	}
	b, err := os.ReadFile(path)
	if err != nil || !strings.HasPrefix(string(b), "key,label,agent,turns,") || !strings.Contains(string(b), dir+","+dir+",,1,") {
		t.Errorf("CSV = %q, %v", b, err)
	}
	if opts := dialog.asked[0]; opts.DefaultFilename != "agentdesk usage by project.csv" || opts.Filters[0].Pattern != "*.csv" {
		t.Errorf("dialog asked %+v", opts)
	}
	dialog.path = ""
	if path, err := a.history.SaveUsageCSV("", "day"); path != "" || err != nil {
		t.Errorf("cancelled = %q, %v", path, err)
	}
}
