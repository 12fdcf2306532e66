package cli

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"

	"agentdesk/backend/hub"
)

// verboseUsage is run's and chat's --verbose.
const verboseUsage = "print the engine's log on stderr too: an agent's stray output, failed writes, the history's masking"

// openCore opens the core a command works on (hub.Open, as the window does) the command
// line's way: on the terminal's own environment (a terminal's is already the login shell's),
// with the stored secrets learnt and the older history masked before anything is printed,
// this process named "agentdesk <who>" in another's refusal of a session. log, when not nil,
// receives the core's log lines (run and chat --verbose: an agent's stray output, failed
// writes); else they are dropped.
func openCore(ctx context.Context, who string, opts hub.Options, log io.Writer) (*hub.Core, error) {
	opts.OwnerName = "agentdesk " + who
	opts.DescribeHistoryError = describeHistoryError
	if log != nil {
		opts.Logf = logLines(log, who)
	}
	return hub.Open(ctx, opts)
}

// logLines writes each log line on w, one whole line at a time, named for the command unless
// it names agentdesk already. The hub masks its lines (hub.New); w is a screen, which filters
// them.
func logLines(w io.Writer, who string) func(string, ...any) {
	var mu sync.Mutex
	return func(format string, args ...any) {
		line := strings.TrimRight(fmt.Sprintf(format, args...), "\n")
		if !strings.HasPrefix(line, "agentdesk") {
			line = "agentdesk " + who + ": " + line
		}
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintln(w, line)
	}
}
