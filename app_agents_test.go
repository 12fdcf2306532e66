package main

import (
	"bytes"
	"encoding/json"
	"log"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"agentdesk/backend/acp"
	"agentdesk/backend/agents"
	"agentdesk/backend/export"
)

func TestTheAgentEditorNeverSendsSecretsBack(t *testing.T) {
	dir := isolatedConfig(t)
	a, _ := newTestApp(t)
	const token = "tok-secret-9876"
	saveLoginAgent(t, a, token)

	list, _ := a.agents.ListAgents()
	got, _ := a.agents.GetAgent("acme")
	for what, v := range map[string]any{"ListAgents": list, "GetAgent": got} {
		if raw, _ := json.Marshal(v); strings.Contains(string(raw), token) {
			t.Fatalf("%s sends the secret to the page: %s", what, raw)
		}
	}
	if last := list[len(list)-1]; last.ID != "acme" || !last.Custom || list[0].Custom {
		t.Fatalf("custom agents come last, flagged: %+v", list)
	}
	if v := got.Env[2]; v.Name != "ACME_TOKEN" || !v.Secret || !v.IsSet || v.Value != "" {
		t.Fatalf("the secret in the editor: %+v; want set, without its value", v)
	}
	file, _ := os.ReadFile(filepath.Join(dir, "agents.json"))
	secrets, _ := os.ReadFile(filepath.Join(dir, "secrets.json"))
	if strings.Contains(string(file), token) || !strings.Contains(string(secrets), token) {
		t.Fatalf("the value must be in secrets.json only:\nagents.json: %s\nsecrets.json: %s", file, secrets)
	}
	st, _ := os.Stat(filepath.Join(dir, "secrets.json"))
	if st.Mode().Perm() != 0o600 {
		t.Fatalf("secrets.json mode %v", st.Mode().Perm())
	}

	// Saved again with the secret left blank: kept. With a new value: replaced. Cleared: refused.
	got.Name = "Acme 2"
	if _, err := a.agents.SaveAgent(got); err != nil {
		t.Fatal(err)
	}
	if v, err := agents.OpenSecrets(dir).Get("acme", "ACME_TOKEN"); err != nil || v != token {
		t.Fatalf("a blank secret field did not keep the value: %q, %v", v, err)
	}
	got.Env[2].IsSet = false
	if _, err := a.agents.SaveAgent(got); err == nil || !strings.Contains(err.Error(), "give a value for the secret ACME_TOKEN") {
		t.Fatalf("a secret without a value: %v", err)
	}
	got.Env[2].Value = "ab"
	if _, err := a.agents.SaveAgent(got); err == nil || !strings.Contains(err.Error(), "too short") {
		t.Fatalf("a short secret: %v", err)
	}
	if _, err := a.agents.SaveAgent(AgentSettings{Name: "Bad", Command: "x", Args: `"unclosed`}); err == nil {
		t.Fatal("unparsable arguments were saved")
	}

	if err := a.agents.DeleteAgent("acme"); err != nil {
		t.Fatal(err)
	}
	if _, err := agents.OpenSecrets(dir).Get("acme", "ACME_TOKEN"); err == nil {
		t.Fatal("deleting the agent left its secret behind")
	}
	if err := a.agents.DeleteAgent("gemini"); err == nil {
		t.Fatal("a preset was deleted")
	}
}

func TestZedAgentsImportIntoThePicker(t *testing.T) {
	isolatedConfig(t)
	a, _ := newTestApp(t)
	res, err := a.agents.ImportZedAgents(`{
	  // from Zed
	  "agent_servers": {
	    "Shell Agent": {"command": "/bin/sh", "args": ["-c", "exit 0"], "env": {"SHELL_AGENT_TOKEN": "zed-token-1234",}},
	    "claude": {"default_mode": "plan"},
	  },
	}`)
	if err != nil || len(res.Added) != 1 || len(res.Skipped) != 1 {
		t.Fatalf("import: %+v, %v", res, err)
	}
	got, err := a.agents.GetAgent("shell-agent")
	if err != nil || got.Command != "/bin/sh" || got.Args != "-c 'exit 0'" || !got.Env[0].Secret || !got.Env[0].IsSet {
		t.Fatalf("imported agent %+v, %v", got, err)
	}
	if _, err := a.agents.ImportZedAgents("  "); err == nil {
		t.Fatal("an empty import was accepted")
	}
}

// Secret values never leave agentdesk: not in the journal the inspector shows, the Markdown
// and JSON exports, the app's log, nor anything the CLI prints (run, show, history).
func TestSecretsAreMaskedInEveryExportPath(t *testing.T) {
	isolatedConfig(t)
	var logs bytes.Buffer
	log.SetOutput(&logs)
	t.Cleanup(func() { log.SetOutput(os.Stderr) })
	a, rec := newTestApp(t)
	const token = "tok-secret-9876"
	state := saveLoginAgent(t, a, token)
	writeStateFile(t, state) // logged in already
	info, st := startAndWait(t, rec, func() (SessionInfo, error) { return a.sessions.StartSession("acme", t.TempDir(), nil, false, false) })
	if st != acp.StateIdle {
		t.Fatalf("start: %s", st)
	}
	if err := a.sessions.Prompt(info.SessionID, "show me your secrets"); err != nil {
		t.Fatal(err)
	}
	rec.waitFor(t, func(e acp.Event) bool { return e.SessionID == info.SessionID && e.Kind == acp.EventTurnEnd })

	lines, err := a.sessions.Messages(info.SessionID)
	if err != nil || len(lines) == 0 {
		t.Fatalf("Messages: %d, %v", len(lines), err)
	}
	journal := ""
	for _, l := range lines {
		journal += l.JSON + "\n"
	}
	raw, err := a.store.Messages(a.ctx, info.SessionID)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range raw {
		journal += string(r.JSON) + "\n" // the database file itself
	}
	md, _ := a.history.ExportHistory(info.SessionID, export.Markdown)
	js, _ := a.history.ExportHistory(info.SessionID, export.JSON)
	saved := ""
	for _, format := range []string{export.Markdown, export.JSON} {
		dialog := &fakeDialog{path: filepath.Join(t.TempDir(), "export."+format)}
		a.history.saveDialog = dialog.show
		if _, err := a.history.SaveHistoryExport(info.SessionID, format); err != nil {
			t.Fatal(err)
		}
		data, _ := os.ReadFile(dialog.path)
		saved += string(data) + dialog.asked[0].DefaultFilename + "\n"
	}
	opened, _ := a.history.OpenHistory(info.SessionID)
	openedJSON, _ := json.Marshal(opened)
	if found, err := a.history.ListHistory(token); err != nil || len(found) != 0 {
		t.Fatalf("a search for the secret found %+v, %v: the index must not know it", found, err)
	}
	found, _ := a.history.ListHistory("see token") // full-text search: the snippet quotes the match
	foundJSON, _ := json.Marshal(found)
	rec.mu.Lock()
	liveJSON, _ := json.Marshal(rec.all) // what the page was sent while the turn ran
	rec.mu.Unlock()
	snap, _ := a.sessions.Snapshot(info.SessionID)
	snapJSON, _ := json.Marshal(snap)
	for what, text := range map[string]string{"journal": journal, "Markdown export": md, "JSON export": js, "saved exports": saved,
		"saved session": string(openedJSON), "search result": string(foundJSON), "live events": string(liveJSON), "live snapshot": string(snapJSON)} {
		if strings.Contains(text, token) || !strings.Contains(text, agents.Mask) {
			t.Errorf("%s: the secret is not masked:\n%s", what, text)
		}
	}
	if !json.Valid([]byte(js)) {
		t.Errorf("masking broke the JSON export")
	}
	if !strings.Contains(logs.String(), "debug: token="+agents.Mask) {
		t.Errorf("the agent's stray stdout line should be logged, masked:\n%s", logs.String())
	}
	if strings.Contains(logs.String(), token) {
		t.Errorf("the log holds the secret:\n%s", logs.String())
	}

	var out, errOut bytes.Buffer
	code := cliRun(strings.NewReader(""), &out, &errOut, "run", "--agent", "acme", "--cwd", t.TempDir(), "--permissions", "allow", "echo it")
	if code != 0 || !strings.Contains(out.String(), "I see token="+agents.Mask) {
		t.Fatalf("run: exit %d\n%s\n%s", code, out.String(), errOut.String())
	}
	for _, args := range [][]string{{"--format", "md", info.SessionID}, {"--format", "json", info.SessionID}} {
		var o, e bytes.Buffer
		if cliRun(nil, &o, &e, append([]string{"show"}, args...)...) != 0 || !strings.Contains(o.String(), agents.Mask) {
			t.Fatalf("show %v: %s %s", args, o.String(), e.String())
		}
		out.Write(o.Bytes())
	}
	cliRun(nil, &out, &errOut, "history", "--search", "secrets")
	if strings.Contains(out.String()+errOut.String(), token) {
		t.Fatalf("the CLI printed the secret:\n%s\n%s", out.String(), errOut.String())
	}
}

func writeStateFile(t *testing.T, path string) {
	t.Helper()
	if err := os.WriteFile(path, []byte("logged in"), 0o600); err != nil {
		t.Fatal(err)
	}
}
