package cli

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"agentdesk/backend/agents"
)

// echoSecret has several search terms (sk, live, q42v9x): a search snippet marks each, and the
// markers cut the value in pieces that masking the printed line would not recognise.
const echoSecret = "sk-live-Q42v9x"

// echoScript is an agent that names the session after its secret and streams it cut in two.
func echoScript(t *testing.T) string {
	t.Helper()
	s := strings.NewReplacer("SECRET", echoSecret, "HEAD", echoSecret[:5], "TAIL", echoSecret[5:]).Replace("[" + handshake + `
 {"expect":"session/prompt"},
 {"update":{"sessionUpdate":"session_info_update","title":"key SECRET"}},
 {"update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Your key is HEAD"}}},
 {"update":{"sessionUpdate":"session_info_update","title":"key SECRET"}},
 {"update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"TAIL, keep it safe."}}},
 {"reply":{"stopReason":"end_turn"}}
]`)
	path := filepath.Join(t.TempDir(), "echo.json")
	if err := os.WriteFile(path, []byte(s), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// unmarked is CLI output without search match markers: a value cut by them is still a value.
func unmarked(s string) string { return strings.NewReplacer("[[", "", "]]", "").Replace(s) }

// The command line prints no secret value: not while `run` streams it (cut across chunks),
// not in `history --search` for it (whose match markers would cut it), and not in `show` of a
// session saved while it was a secret, also once the secret has been deleted.
func TestCLIPrintsNoSecretEvenAfterItIsDeleted(t *testing.T) {
	isolatedConfig(t)
	self, err := filepath.Abs(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	// Saved as the window's agent editor does.
	cat, _ := agents.OpenCatalog(nil, nil)
	if _, _, err := cat.Save(agents.Custom{Name: "Echo", Command: self, Args: []string{"demo-agent", "--script", echoScript(t)},
		Env: []agents.EnvVar{{Name: "ECHO_TOKEN", Secret: true}}}, map[string]string{"ECHO_TOKEN": echoSecret}); err != nil {
		t.Fatal(err)
	}

	var out, errOut bytes.Buffer
	if code := runCLI([]string{"--agent", "echo", "--cwd", t.TempDir(), "print " + echoSecret}, strings.NewReader(""), &out, &errOut); code != 0 {
		t.Fatalf("run: exit %d\n%s\n%s", code, out.String(), errOut.String())
	}
	if !strings.Contains(out.String(), "Your key is "+agents.Mask+", keep it safe.") || !strings.Contains(out.String(), "> print "+agents.Mask) {
		t.Fatalf("run printed:\n%s", out.String())
	}
	printed := out.String() + errOut.String()

	search := func(when string) {
		t.Helper()
		var o, e bytes.Buffer
		for _, q := range []string{"sk live Q42v9x", "key"} {
			if code := historyCLI([]string{"--search", q}, nil, &o, &e); code != 0 {
				t.Fatalf("%s: history --search %q: exit %d: %s", when, q, code, e.String())
			}
		}
		if !strings.Contains(o.String(), "key "+agents.Mask) {
			t.Fatalf("%s: history --search key does not list the session, masked:\n%s", when, o.String())
		}
		printed += o.String() + e.String()
	}
	search("while the secret is stored")
	var list bytes.Buffer
	historyCLI(nil, nil, &list, &errOut)
	id := strings.Fields(list.String())[0]

	if err := cat.Delete("echo"); err != nil {
		t.Fatal(err)
	}
	c := openToPrint(context.Background(), "", "history", io.Discard) // what history and show mask with
	if c == nil {
		t.Fatal("the history did not open")
	}
	c.Close(context.Background())
	if !c.Catalog.Masker().Empty() {
		t.Fatal("the deleted agent's secret is still known: the rest of the test would not test a deleted secret")
	}
	search("after the secret was deleted")
	for _, format := range []string{"md", "json"} {
		var o, e bytes.Buffer
		if code := showCLI([]string{"--format", format, id}, nil, &o, &e); code != 0 || !strings.Contains(o.String(), "Your key is "+agents.Mask) {
			t.Fatalf("show --format %s after the secret was deleted: exit %d\n%s\n%s", format, code, o.String(), e.String())
		}
		printed += o.String() + e.String()
	}
	if strings.Contains(unmarked(printed), echoSecret) {
		t.Fatalf("the command line printed the secret:\n%s", printed)
	}
}
