package acp

import (
	"regexp"

	"agentdesk/backend/acp/schema"
)

// agentVersionRe is what an agent's own version may look like to be shown: a plain version
// word, bounded, with no space, control or bidi character.
var agentVersionRe = regexp.MustCompile(`^[0-9A-Za-z][0-9A-Za-z.+_-]{0,39}$`)

// RunningVersion is the version shown for a session's agent (Snapshot.AgentVersion and the info
// event; the session header): the version installed when there is one (Config.AgentVersion: a
// preset's package or a registry agent, put in place by agentdesk and known before the start),
// else the agentInfo.version the agent sent in initialize when it is a plain version (the
// agent's own words, untrusted: anything else is not shown), else "". The picker and
// `agentdesk agents`, where nothing runs yet, show the installed version only.
func RunningVersion(installed string, info *schema.Implementation) string {
	if installed != "" {
		return installed
	}
	if info != nil && agentVersionRe.MatchString(info.Version) {
		return info.Version
	}
	return ""
}
