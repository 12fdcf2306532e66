package acp

import (
	"encoding/json"
	"errors"
	"fmt"

	"agentdesk/backend/acp/jsonrpc"
)

// startupHints say what a person can do about a refused start, by the reason the agent gives in
// its error's data.startupFailureReason (claude-agent-acp). The agent's own words for
// "bypass_root" name a flag nobody passed ("--dangerously-skip-permissions cannot be used with
// root/sudo privileges"): as root with IS_SANDBOX set to anything but 1, its adapter offers the
// bypass (any value will do for it) that its CLI refuses (only 1 will), and no session opens, in
// any mode (docs/acp.md).
var startupHints = map[string]string{
	"bypass_root": "Claude Code refuses to start as root when IS_SANDBOX is set to anything but 1: leave IS_SANDBOX out of the agent's environment (it then runs as root without its bypass mode), set it to 1 in a throwaway container only, or start agentdesk as another user",
}

// withStartupHint adds to err what to do about the refusal cause carries, when its reason is a
// known one; otherwise it returns err as it is. errors.Is and As still find what err wraps.
func withStartupHint(err, cause error) error {
	var rpcErr *jsonrpc.Error
	if !errors.As(cause, &rpcErr) || len(rpcErr.Data) == 0 {
		return err
	}
	var data struct {
		Reason string `json:"startupFailureReason"`
	}
	if json.Unmarshal(rpcErr.Data, &data) != nil || startupHints[data.Reason] == "" {
		return err
	}
	return fmt.Errorf("%w. %s", err, startupHints[data.Reason])
}
