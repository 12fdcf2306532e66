package cli

import (
	"bytes"
	"strings"
	"testing"
)

func TestCLIAsksTheAgentsFormOnTheTerminal(t *testing.T) {
	t.Setenv("AGENTDESK_DEMO_PACE", "0s")
	db := t.TempDir() + "/cli.db"
	var out, errOut bytes.Buffer
	// Answer? yes; name; colour 2; count 11 (refused, asked again) then the default; subscribe; token.
	stdin := strings.NewReader("\nAnn\n2\n11\n\ny\ntok-secret-9\n")
	code := runCLI([]string{"--db", db, "--permissions", "ask", "--cwd", t.TempDir(), "ask me"}, stdin, &out, &errOut)
	if code != 0 {
		t.Fatalf("exit %d, stderr %s\n%s", code, errOut.String(), out.String())
	}
	text := out.String()
	for _, want := range []string{"[question] A few questions for the demo.", "Favourite colour choices: [1] Red [2] Green [3] Blue",
		"(default 3)", "must be at most 10", "(secret: what you type is shown here, but never saved)",
		"[question] accepted by the user on the terminal: colour: green, count: 3, name: Ann, subscribe: true, token: ••••••",
		"**count**: 3", "a secret of 12 characters"} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	if strings.Contains(text, "tok-secret-9") {
		t.Fatal("the secret was printed")
	}
	out.Reset()
	if code := historyCLI([]string{"--db", db}, nil, &out, &errOut); code != 0 {
		t.Fatalf("history exit %d: %s", code, errOut.String())
	}
	prefix := strings.Fields(out.String())[0][:8]
	for _, format := range []string{"md", "json"} {
		out.Reset()
		if code := showCLI([]string{"--db", db, "--format", format, prefix}, nil, &out, &errOut); code != 0 {
			t.Fatalf("show exit %d: %s", code, errOut.String())
		}
		if !strings.Contains(out.String(), "Ann") || !strings.Contains(out.String(), "••••••") || strings.Contains(out.String(), "tok-secret-9") {
			t.Fatalf("show --format %s:\n%s", format, out.String())
		}
	}
}

func TestCLIDeclinesWhenItMayNotAsk(t *testing.T) {
	t.Setenv("AGENTDESK_DEMO_PACE", "0s")
	for _, c := range []struct {
		name, policy, prompt, stdin string
		want                        []string
	}{
		{"link without asking", "allow", "open a link", "", []string{"link: https://example.com/login (host example.com)",
			"[question] declined: agentdesk run answers without asking", "You chose decline"}},
		{"form without asking", "reject", "ask me", "", []string{"does not show elicitation forms"}},
		{"form, stdin closed", "ask", "ask me", "", []string{"[question] declined: there is no terminal to answer on", "You chose decline"}},
		{"form, the person says no", "ask", "ask me", "n\n", []string{"[question] declined by the user on the terminal", "You chose decline"}},
		{"link, the person says yes", "ask", "open a link", "y\n", []string{"[question] accepted by the user on the terminal\n",
			"[question] accepted by the user on the terminal, then completed by the agent", "the login is done"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := runCLI([]string{"--db", t.TempDir() + "/cli.db", "--permissions", c.policy, "--cwd", t.TempDir(), c.prompt},
				strings.NewReader(c.stdin), &out, &errOut)
			if code != 0 {
				t.Fatalf("exit %d, stderr %s\n%s", code, errOut.String(), out.String())
			}
			for _, want := range c.want {
				if !strings.Contains(out.String(), want) {
					t.Fatalf("output lacks %q:\n%s", want, out.String())
				}
			}
		})
	}
}

// TestCLIMasksASecretAnswerTheAgentEchoes: the value of a password field is masked wherever the
// agent repeats it: the transcript printed, and the history show reads.
func TestCLIMasksASecretAnswerTheAgentEchoes(t *testing.T) {
	dir := t.TempDir()
	agent := scriptAgent(t, "["+handshake+`
		{"expect":"session/prompt"},
		{"call":"elicitation/create","params":{"mode":"form","message":"Key?","requestedSchema":{"properties":{"key":{"type":"string","writeOnly":true}},"required":["key"]}},"want":"echo-secret-77"},
		{"update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"your key is echo-secret-77"}}},
		{"reply":{"stopReason":"end_turn"}}]`)
	db := dir + "/cli.db"
	var out, errOut bytes.Buffer
	code := runCLI([]string{"--db", db, "--agent-cmd", agent, "--permissions", "ask",
		"--cwd", dir, "go"}, strings.NewReader("y\necho-secret-77\n"), &out, &errOut)
	if code != 0 || !strings.Contains(out.String(), "your key is ••••••") || strings.Contains(out.String(), "echo-secret-77") {
		t.Fatalf("exit %d\n%s\n%s", code, out.String(), errOut.String())
	}
	out.Reset()
	if code := historyCLI([]string{"--db", db}, nil, &out, &errOut); code != 0 {
		t.Fatalf("history exit %d: %s", code, errOut.String())
	}
	prefix := strings.Fields(out.String())[0][:8]
	out.Reset()
	if code := showCLI([]string{"--db", db, "--format", "json", prefix}, nil, &out, &errOut); code != 0 || strings.Contains(out.String(), "echo-secret-77") {
		t.Fatalf("show exit %d:\n%s", code, out.String())
	}
}
