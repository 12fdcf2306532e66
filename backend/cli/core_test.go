package cli

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

// run --verbose prints the engine's log on stderr (here: a notification the agent sent that
// agentdesk ignores), named for the command; without it the log is dropped, as before.
func TestRunVerbosePrintsTheEngineLog(t *testing.T) {
	isolatedConfig(t)
	dir := t.TempDir()
	agent := scriptAgent(t, `[
	{"expect":"initialize"}, {"reply":{"protocolVersion":1,"agentCapabilities":{}}},
	{"expect":"session/new"}, {"reply":{"sessionId":"x"}},
	{"expect":"session/prompt"},
	{"send":{"jsonrpc":"2.0","method":"x/unheard-of","params":{}}},
	{"reply":{"stopReason":"end_turn"}}]`)
	for _, verbose := range []bool{false, true} {
		args := []string{"--db", filepath.Join(dir, "v.db"), "--agent-cmd", agent, "--cwd", dir, "go"}
		if verbose {
			args = append([]string{"--verbose"}, args...)
		}
		var out, errOut bytes.Buffer
		if code := runCLI(args, nil, &out, &errOut); code != 0 {
			t.Fatalf("--verbose=%v: exit %d: %s", verbose, code, errOut.String())
		}
		logged := strings.Contains(errOut.String(), `ignored notification "x/unheard-of"`)
		if logged != verbose || (verbose && !strings.Contains(errOut.String(), "agentdesk run: ")) {
			t.Fatalf("--verbose=%v: the engine's log on stderr is %v:\n%s", verbose, logged, errOut.String())
		}
	}
}
