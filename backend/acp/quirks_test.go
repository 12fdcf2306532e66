package acp_test

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/schema"
)

// TestAMissingFileReadsEmptyForGeminiOnly: Gemini CLI (agentInfo.name "gemini-cli") is answered
// empty content for a missing file, so it can create files (it reads before it writes); any other
// agent gets -32002, and Gemini still gets the real error for what is not a missing file inside
// (a directory, a path outside, a dangling link leading out).
func TestAMissingFileReadsEmptyForGeminiOnly(t *testing.T) {
	for _, c := range []struct{ name, missing string }{
		{"gemini-cli", `"content":""`},
		{"other-agent", `-32002`},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
				t.Fatal(err)
			}
			// a dangling link out of the folder is outside, not missing
			if err := os.Symlink(filepath.Join(t.TempDir(), "absent.txt"), filepath.Join(dir, "out.txt")); err != nil {
				t.Fatal(err)
			}
			sc := script(t, `[
 {"expect":"initialize"}, {"reply":{"protocolVersion":1,"agentCapabilities":{},"agentInfo":{"name":"`+c.name+`","version":"0.61.0"}}},
 {"expect":"session/new"}, {"reply":{"sessionId":"sc1"}},
 {"expect":"session/prompt"},
 {"call":"fs/read_text_file","params":{"path":"`+filepath.Join(dir, "new.txt")+`"},"want":`+strconv.Quote(c.missing)+`},
 {"call":"fs/read_text_file","params":{"path":"`+filepath.Join(dir, "sub")+`"},"want":"-32602"},
 {"call":"fs/read_text_file","params":{"path":"/etc/hostname"},"want":"-32602"},
 {"call":"fs/read_text_file","params":{"path":"`+filepath.Join(dir, "out.txt")+`"},"want":"-32602"},
 {"reply":{"stopReason":"end_turn"}}]`)
			s, ev := runScript(t, sc, nil, func(c *acp.Config) { c.Cwd = dir })
			if _, err := s.Prompt("write new.txt"); err != nil {
				t.Fatal(err)
			}
			if end := ev.waitFor(t, "turn_end", kind(acp.EventTurnEnd)); end.StopReason != schema.StopEndTurn {
				t.Fatalf("the turn ended %q (%s): an answer was not the one wanted", end.StopReason, end.Message)
			}
		})
	}
}
