package agents

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// bashWithHome returns bash and sets HOME to a temp dir holding profile as ~/.bash_profile.
func bashWithHome(t *testing.T, profile string) (shell, home string) {
	t.Helper()
	bash, err := LookPath("bash", os.Getenv("PATH"))
	if err != nil {
		t.Skip("bash is not installed")
	}
	home = t.TempDir()
	if err := os.WriteFile(filepath.Join(home, ".bash_profile"), []byte(profile), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home)
	return bash, home
}

func TestCaptureLoginEnvDropsWhatStartupFilesPrint(t *testing.T) {
	bash, _ := bashWithHome(t, `echo "Welcome back! noise=1"
printf 'no newline noise'
export AGENTDESK_FROM_PROFILE='set by the profile'
export PATH="$HOME/.local/bin:$PATH"
echo "bye noise" >&2
`)
	env, err := CaptureLoginEnv(context.Background(), bash)
	if err != nil {
		t.Fatal(err)
	}
	if got := Getenv(env, "AGENTDESK_FROM_PROFILE"); got != "set by the profile" {
		t.Errorf("AGENTDESK_FROM_PROFILE = %q", got)
	}
	if p := Getenv(env, "PATH"); !strings.HasPrefix(p, os.Getenv("HOME")+"/.local/bin:") {
		t.Errorf("PATH = %q, want the profile's addition first", p)
	}
	for _, kv := range env {
		if strings.Contains(kv, "noise") || !strings.Contains(kv, "=") {
			t.Errorf("the startup files' output leaked into the environment: %q", kv)
		}
	}
}

func TestCaptureLoginEnvRefusesWhatItCannotRun(t *testing.T) {
	for shell, want := range map[string]string{
		"":              "SHELL is not set",
		"/bin/tcsh":     "not a shell agentdesk can ask",
		"/no/such/bash": "no such file",
	} {
		if _, err := CaptureLoginEnv(context.Background(), shell); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("shell %q: err = %v, want it to say %q", shell, err, want)
		}
	}
}

func TestAgentEnvPrefersTheLoginShellAndKeepsWhatOnlyTheAppHas(t *testing.T) {
	t.Setenv("AGENTDESK_ONLY_IN_APP", "kept")
	t.Setenv("PATH", "/usr/bin")
	env := AgentEnv([]string{"PATH=/home/me/.nvm/bin:/usr/bin", "SHLVL=2", "PWD=/home/me", "_=/usr/bin/env", "EDITOR=vi"})
	if got := Getenv(env, "PATH"); got != "/home/me/.nvm/bin:/usr/bin" {
		t.Errorf("PATH = %q, want the login shell's", got)
	}
	if Getenv(env, "AGENTDESK_ONLY_IN_APP") != "kept" || Getenv(env, "EDITOR") != "vi" {
		t.Errorf("env lost a variable: %v", env)
	}
	for _, name := range []string{"SHLVL", "PWD", "_"} {
		if Getenv(env, name) != "" && Getenv(os.Environ(), name) == "" {
			t.Errorf("%s came from the login shell", name)
		}
	}
	if n := strings.Count(strings.Join(env, "\n"), "\nPATH=") + boolInt(strings.HasPrefix(env[0], "PATH=")); n != 1 {
		t.Errorf("PATH appears %d times", n)
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
