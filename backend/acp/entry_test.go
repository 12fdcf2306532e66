package acp

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSearchTextOfAToolCallIsWhatItShowed(t *testing.T) {
	old := "a"
	tool := &Entry{Kind: KindTool, Title: "Run tests", Content: []ToolContent{
		{Type: "content", Text: "listing: main.go"},
		{Type: "diff", Path: "notes.md", OldText: &old, NewText: "b"},
		{Type: "terminal", TerminalID: "t1", Output: "ok  \texample.com/app\nPASS"},
		{Type: "image", Raw: []byte(`{"type":"image"}`)},
	}}
	if got, want := tool.SearchText(), "listing: main.go\nnotes.md\nb\nok  \texample.com/app\nPASS"; got != want {
		t.Fatalf("SearchText = %q, want %q", got, want)
	}
	if msg := (&Entry{Kind: KindAgent, Text: "hello"}); msg.SearchText() != "hello" {
		t.Fatalf("a message's search text: %q", msg.SearchText())
	}
	if empty := (&Entry{Kind: KindTool, Title: "Read"}); empty.SearchText() != "" {
		t.Fatalf("a tool call without content: %q", empty.SearchText())
	}
}

func TestSearchTextOfALongOutputIsCutOnARune(t *testing.T) {
	long := strings.Repeat("é", maxSearchText) // two bytes each: the cut falls inside one
	e := &Entry{Kind: KindTool, Content: []ToolContent{{Type: "terminal", Output: "x" + long}, {Type: "content", Text: "never"}}}
	got := e.SearchText()
	if len(got) > maxSearchText || len(got) < maxSearchText-1 || !utf8.ValidString(got) || strings.Contains(got, "never") {
		t.Fatalf("a long output gave %d bytes (valid UTF-8: %v)", len(got), utf8.ValidString(got))
	}
}
