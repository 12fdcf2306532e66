package acp

import (
	"fmt"
	"strings"
)

// dirsForAgentLocked is the additionalDirectories of an open call: the session's additional
// folders when the agent takes them (sessionCapabilities.additionalDirectories), else nil. An
// agent that does not is told only of cwd; the person is told once, in a notice, because the
// folders stay open to that agent's fs/* requests and terminals while it may never look there.
func (s *Session) dirsForAgentLocked() []string {
	if len(s.cfg.Dirs) == 0 {
		return nil
	}
	if s.caps.sessionCap("additionalDirectories") {
		return s.cfg.Dirs
	}
	if !s.dirsTold {
		s.dirsTold = true
		list := strings.Join(s.cfg.Dirs, ", ")
		s.cfg.Logf("session %s: %s does not take additional folders; not sent: %s", s.cfg.ID, s.cfg.AgentName, list)
		s.pushChange(s.tr.AddNotice(Notice{Severity: "info", Title: s.cfg.AgentName + " was told only of " + s.cfg.Cwd,
			Description: fmt.Sprintf("It does not take additional folders, so it was not told of %s. It may still read and write "+
				"them if you give it their paths.", list)}))
	}
	return nil
}
