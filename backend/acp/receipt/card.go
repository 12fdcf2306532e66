package receipt

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"agentdesk/backend/acp/schema"
	"agentdesk/backend/acp/terminal"
)

// Card is what a draft reads of a tool card (a transcript entry of kind tool) that was just
// added or changed.
type Card struct {
	EntryID  string
	ToolKind string // only an "execute" card is a command of its own
	Title    string
	RawInput json.RawMessage
	// Terminals are the card's terminal content, in order: the terminal's id ("" for one the
	// agent runs itself) and its exit once known.
	Terminals []CardTerminal
	// Failed (the card's status), RawOutput and Text (its first text content) are where an
	// agent that runs commands without a terminal says how one ended: Claude Code's Bash tool
	// fails with rawOutput "Exit code 3" and the same words leading its text; opencode's bash
	// completes with rawOutput {"metadata": {"exit": 3}}.
	Failed    bool
	RawOutput json.RawMessage
	Text      string
}

// CardTerminal is one terminal a card shows.
type CardTerminal struct {
	ID   string
	Exit *schema.TerminalExitStatus
}

// ToolCard notes what card adds to the turn's commands: an execute call is a command, unless
// the terminal it shows already is one (then the terminal's command is linked to the card
// instead of being counted twice).
func (d *Draft) ToolCard(card Card) {
	if d == nil {
		return
	}
	entryID := card.EntryID
	// The terminals of ours the card shows.
	var linked []int
	for _, t := range card.Terminals {
		if t.ID == "" {
			continue
		}
		for j := range d.commands {
			if d.commands[j].termID == t.ID && (d.commands[j].entryID == "" || d.commands[j].entryID == entryID) {
				linked = append(linked, j)
			}
		}
	}
	own := -1 // the card's own command (an execute call not yet linked to a terminal)
	for j := range d.commands {
		if d.commands[j].entryID == entryID && d.commands[j].termID == "" {
			own = j
		}
	}
	if len(linked) == 0 {
		for _, t := range card.Terminals {
			if d.counted["t:"+t.ID] {
				d.counted["e:"+entryID] = true // its terminal is counted (beyond the list's bound)
				return
			}
		}
	}
	for _, j := range linked {
		d.commands[j].entryID, d.commands[j].ToolCallID = entryID, entryID
	}
	if len(linked) > 0 {
		if own >= 0 {
			// Listed twice: keep the earlier place, with the terminal's exact command line.
			first := linked[0]
			if own < first {
				d.commands[own] = d.commands[first]
				own, first = first, own
			}
			d.commands = append(d.commands[:own], d.commands[own+1:]...)
		}
		d.counted["e:"+entryID] = true
		return
	}
	if card.ToolKind != "execute" {
		return
	}
	command, fromTitle := executeCommand(card.RawInput, card.Title)
	exit := card.exit()
	if own >= 0 {
		c := &d.commands[own]
		if c.fromTitle && !fromTitle || c.Command.Command == "" {
			c.Command.Command, c.fromTitle = command, fromTitle
		}
		if exit != nil {
			c.setExit(exit)
		}
		return
	}
	if d.counted["e:"+entryID] {
		return
	}
	d.counted["e:"+entryID] = true
	c := draftCommand{Command: Command{Command: command, ToolCallID: entryID}, entryID: entryID, fromTitle: fromTitle}
	c.setExit(exit)
	d.commands = bounded(d.commands, &d.moreCommands, c)
}

// executeCommand is an execute card's command line: rawInput's command (a string or a list of
// words) or cmd, else the card's title (fromTitle).
func executeCommand(rawInput json.RawMessage, title string) (command string, fromTitle bool) {
	var in struct {
		Command json.RawMessage `json:"command"`
		Cmd     json.RawMessage `json:"cmd"`
	}
	if len(rawInput) > 0 && json.Unmarshal(rawInput, &in) == nil {
		for _, raw := range []json.RawMessage{in.Command, in.Cmd} {
			var line string
			if json.Unmarshal(raw, &line) == nil && strings.TrimSpace(line) != "" {
				return cutLine(line), false
			}
			var words []string
			if json.Unmarshal(raw, &words) == nil && len(words) > 0 {
				for i, w := range words {
					words[i] = terminal.ShellQuote(w)
				}
				return cutLine(strings.Join(words, " ")), false
			}
		}
	}
	return cutLine(title), true
}

// exit is how the terminal the card shows ended (ours, or one the agent runs itself and
// reports in _meta), else the exit code its rawOutput's metadata names, else the one a failed
// card's own words report; nil while unknown.
func (c Card) exit() *schema.TerminalExitStatus {
	for _, t := range c.Terminals {
		if t.Exit != nil {
			return t.Exit
		}
	}
	if code, ok := metadataExit(c.RawOutput); ok {
		return &schema.TerminalExitStatus{ExitCode: &code}
	}
	if !c.Failed {
		return nil // a completed card without a terminal does not say it exited 0
	}
	var raw string
	if json.Unmarshal(c.RawOutput, &raw) != nil {
		raw = ""
	}
	for _, text := range []string{raw, c.Text} {
		if m := reportedExit.FindStringSubmatch(text); m != nil {
			if code, err := strconv.Atoi(m[1]); err == nil {
				return &schema.TerminalExitStatus{ExitCode: &code}
			}
		}
	}
	return nil
}

// metadataExit is the exit code in rawOutput's metadata.exit, where opencode's bash tool
// (1.18) reports it on a call that completes whatever the code; false when there is none.
func metadataExit(rawOutput json.RawMessage) (int, bool) {
	var out struct {
		Metadata struct {
			Exit *int `json:"exit"`
		} `json:"metadata"`
	}
	if len(rawOutput) == 0 || rawOutput[0] != '{' || json.Unmarshal(rawOutput, &out) != nil || out.Metadata.Exit == nil {
		return 0, false
	}
	return *out.Metadata.Exit, true
}

// reportedExit is how an agent's failed command reports its exit code in words at the start of
// its output ("Exit code 3", "exit code: 3"); a number anywhere else is the command's output.
var reportedExit = regexp.MustCompile(`^\s*(?i:exit code):?\s+(-?\d{1,9})\b`)

func (c *draftCommand) setExit(x *schema.TerminalExitStatus) {
	if x == nil {
		return
	}
	c.ExitCode, c.Signal = nil, ""
	if x.ExitCode != nil {
		code := *x.ExitCode
		c.ExitCode = &code
	}
	if x.Signal != nil {
		c.Signal = *x.Signal
	}
}

// cutLine bounds a command line to MaxCommandLine bytes, cut on a character boundary and marked
// "…" where it was cut.
func cutLine(s string) string {
	if len(s) <= MaxCommandLine {
		return s
	}
	cut := MaxCommandLine - len("…")
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
