package main

import (
	"strings"
	"testing"
)

func TestMessagesJournalTheProtocol(t *testing.T) {
	a, _, info := startDemoApp(t)
	lines, err := a.sessions.Messages(info.SessionID)
	if err != nil || len(lines) < 4 {
		t.Fatalf("journal %+v, %v", lines, err)
	}
	if l := lines[0]; l.Direction != "out" || l.Method != "initialize" || !strings.Contains(l.JSON, `"protocolVersion":1`) {
		t.Fatalf("first line %+v, want our initialize", l)
	}
	if l := lines[1]; l.Direction != "in" || !strings.Contains(l.JSON, `"agentCapabilities"`) {
		t.Fatalf("second line %+v, want the agent's answer", l)
	}
	if err := a.sessions.SetMode(info.SessionID, "plan"); err == nil || !strings.Contains(err.Error(), "offers no modes") {
		t.Fatalf("SetMode on an agent without modes: %v", err)
	}
	if err := a.sessions.SetConfigOption(info.SessionID, "x", "not json"); err == nil {
		t.Fatal("a value that is not JSON was accepted")
	}
}
