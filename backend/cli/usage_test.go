package cli

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"agentdesk/backend/store"
)

// usageDB writes a history of two agents, one of which reports tokens and cost.
func usageDB(t *testing.T) string {
	t.Helper()
	db := filepath.Join(t.TempDir(), "u.db")
	st, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	w := st.Writer()
	start := time.Now().Add(-time.Hour)
	w.CreateSession(store.Session{ID: "aaaaaaaa-1111", AgentID: "claude", AgentName: "Claude", Cwd: "/p/a", Title: "fix\tthe build"})
	w.CreateSession(store.Session{ID: "bbbbbbbb-2222", AgentID: "quiet", AgentName: "Quiet", Cwd: "/p/b", Title: "docs"})
	for i, s := range []string{"aaaaaaaa-1111", "aaaaaaaa-1111", "bbbbbbbb-2222"} {
		at := start.Add(time.Duration(i) * time.Minute)
		w.StartTurn(store.Turn{SessionID: s, Turn: i + 1, Prompt: "p", StartedAt: at})
		w.EndTurn(s, i+1, "end_turn", "", at.Add(2500*time.Millisecond))
		if s[0] == 'a' {
			w.SetReceipt(s, i+1, []byte(`{"stopReason":"end_turn","wallMs":2500,"tokens":{"input":100,"output":20,"total":120},"cost":{"amount":0.125,"currency":"USD"}}`))
		}
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	return db
}

func TestCLIUsagePrintsAnAlignedTable(t *testing.T) {
	isolatedConfig(t)
	db := usageDB(t)
	var out, errOut bytes.Buffer
	if code := execute(nil, &out, &errOut, "usage", "--db", db); code != ExitOK {
		t.Fatalf("usage exit %d: %s", code, errOut.String())
	}
	lines := strings.Split(strings.TrimRight(out.String(), "\n"), "\n")
	if len(lines) != 6 || !strings.HasPrefix(lines[0], "AGENT   TURNS") || !strings.HasPrefix(lines[1], "Claude  2      5.0s") ||
		!strings.HasSuffix(lines[1], "240     0.25 USD") || !strings.HasPrefix(lines[2], "Quiet   1      2.5s  -") ||
		!strings.HasPrefix(lines[3], "TOTAL   3      7.5s") ||
		lines[5] != "Reported no tokens or cost (counted by turns and time only): Quiet" {
		t.Errorf("usage =\n%s", out.String())
	}
	// Every column starts at the same offset on every row.
	col := strings.Index(lines[0], "COST")
	if strings.Index(lines[1], "0.25 USD") != col || strings.Index(lines[3], "0.25 USD") != col {
		t.Errorf("COST column not aligned:\n%s", out.String())
	}

	out.Reset()
	// 2d (today and yesterday): the turns began an hour ago, which is yesterday just after
	// midnight, and 1d would leave them out then.
	if code := execute(nil, &out, &errOut, "usage", "--db", db, "--by", "session", "--since", "2d"); code != ExitOK ||
		!strings.Contains(out.String(), "aaaaaaaa  Claude  fix the build") || !strings.Contains(out.String(), "bbbbbbbb  Quiet   docs") {
		t.Errorf("by session: exit %d\n%s%s", code, out.String(), errOut.String())
	}
	out.Reset()
	if code := execute(nil, &out, &errOut, "usage", "--db", db, "--by", "day"); code != ExitOK ||
		!strings.Contains(out.String(), time.Now().Add(-time.Hour).Format("2006-01-02")) {
		t.Errorf("by day: exit %d\n%s", code, out.String())
	}
	out.Reset()
	if code := execute(nil, &out, &errOut, "usage", "--db", db, "--since", "2999-01-01"); code != ExitOK ||
		out.String() != "no turns in this range\n" {
		t.Errorf("future: exit %d %q", code, out.String())
	}
}

func TestCLIUsageRefusesBadFlags(t *testing.T) {
	isolatedConfig(t)
	for _, args := range [][]string{{"--by", "week"}, {"--since", "yesterday"}, {"extra"}} {
		var out, errOut bytes.Buffer
		if code := execute(nil, &out, &errOut, append([]string{"usage"}, args...)...); code != ExitUsage ||
			!strings.Contains(errOut.String(), "Usage: agentdesk usage") {
			t.Errorf("usage %q: exit %d %s", args, code, errOut.String())
		}
	}
}
