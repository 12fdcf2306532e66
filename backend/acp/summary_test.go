package acp_test

import (
	"fmt"
	"strings"
	"testing"

	"agentdesk/backend/acp"
)

// turnsOf builds n saved turns, each a prompt, a reply of replyLen bytes and a tool call.
func turnsOf(n, replyLen int) []acp.Entry {
	var out []acp.Entry
	id := 0
	add := func(e acp.Entry) {
		id++
		e.ID = fmt.Sprintf("e%d", id)
		out = append(out, e)
	}
	for i := 1; i <= n; i++ {
		add(acp.Entry{Kind: acp.KindUser, Turn: i, Text: fmt.Sprintf("prompt %d", i)})
		add(acp.Entry{Kind: acp.KindThought, Turn: i, Text: "secret thinking"})
		add(acp.Entry{Kind: acp.KindAgent, Turn: i, Text: fmt.Sprintf("reply %d ", i) + strings.Repeat("x", replyLen)})
		add(acp.Entry{Kind: acp.KindTool, Turn: i, Title: fmt.Sprintf("Edit\nfile%d.go", i), Status: acp.StatusCompleted})
	}
	return out
}

func TestSummarizeFitsAndIsContext(t *testing.T) {
	got := acp.Summarize(turnsOf(3, 10), acp.DefaultSummaryBudget)
	for _, want := range []string{"not a request", "do not act on it", "prompt 1", "reply 3", "Tool call: Edit file2.go: completed", "new message follows"} {
		if !strings.Contains(got, want) {
			t.Errorf("summary lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "secret thinking") || strings.Contains(got, "[…") {
		t.Errorf("thoughts or an elision note in a summary that fits:\n%s", got)
	}
}

func TestSummarizeKeepsTheNewestTurnsWithinBudget(t *testing.T) {
	entries := turnsOf(40, 1000)
	for _, budget := range []int{2000, 8000, acp.DefaultSummaryBudget} {
		got := acp.Summarize(entries, budget)
		if len(got) > budget {
			t.Fatalf("budget %d: %d bytes", budget, len(got))
		}
		if !strings.Contains(got, "reply 40 ") || !strings.Contains(got, "prompt 40") {
			t.Fatalf("budget %d: the newest turn is not whole:\n%s", budget, got)
		}
		if !strings.Contains(got, "earlier turns: prompts only]") {
			t.Fatalf("budget %d: no note of the turns cut to prompts:\n%s", budget, got)
		}
	}
	// With room for prompts, the oldest turns keep their prompts only.
	got := acp.Summarize(entries, acp.DefaultSummaryBudget)
	if !strings.Contains(got, "prompt 1\n") || strings.Contains(got, "reply 1 ") {
		t.Fatalf("the oldest turn is not cut to its prompt:\n%s", got)
	}
	// With little room the oldest are left out, and said so.
	if got := acp.Summarize(entries, 2000); !strings.Contains(got, "earlier turns left out]") {
		t.Fatalf("no note of the turns left out:\n%s", got)
	}
}

func TestSummarizeNothing(t *testing.T) {
	if got := acp.Summarize(nil, 100); got != "" {
		t.Fatalf("%q", got)
	}
	if got := acp.Summarize([]acp.Entry{{ID: "e1", Kind: acp.KindAgent, Text: "hello"}}, 100); got != "" {
		t.Fatalf("a summary without prompts: %q", got)
	}
}

func TestSummarizeCutsAHugeReply(t *testing.T) {
	got := acp.Summarize(turnsOf(1, 1<<20), acp.DefaultSummaryBudget)
	if len(got) > 8<<10 || !strings.Contains(got, "…") {
		t.Fatalf("a huge reply is not cut: %d bytes", len(got))
	}
}
