package cli

import (
	"fmt"
	"sort"
	"strings"

	"agentdesk/backend/acp/schema"
)

// chat's own words: the recap, notices, /help, and their style.

// recap says what the chat is: the saved session continued (its title, turns, the last
// prompt), or on a terminal, the agent and the keys.
func (c *chatLoop) recap(tty bool) {
	if c.f.cont != "" && c.env.st != nil {
		s, turns, _, err := c.env.st.Session(c.ctx, c.env.sess.ID())
		if err == nil {
			plural := "s"
			if len(turns) == 1 {
				plural = ""
			}
			line := fmt.Sprintf("Continuing %q with %s in %s: %d turn%s so far", s.Title, c.env.info.AgentName, c.env.info.Cwd, len(turns), plural)
			if len(turns) > 0 {
				line += fmt.Sprintf(", the last: %q", shorten(turns[len(turns)-1].Prompt, 60))
			}
			c.say(line)
			return
		}
	}
	if tty {
		c.say(fmt.Sprintf("Chatting with %s in %s. /help lists the commands; Ctrl-C stops a turn; Ctrl-D leaves.",
			c.env.info.AgentName, c.env.info.Cwd))
	}
}

// say prints one line of chat's own, between the transcript's lines.
func (c *chatLoop) say(s string) {
	c.env.out.mu.Lock()
	c.env.out.line("") // end a streamed message first
	c.env.out.mu.Unlock()
	c.env.out.printOwn(c.paint.dim(safeText(s)) + "\n")
}

// commandNames are the slash commands Tab completes: chat's and the agent's current ones.
func (c *chatLoop) commandNames() []string {
	names := []string{"help", "quit", "exit"}
	if cmds := c.commands.Load(); cmds != nil {
		for _, cmd := range *cmds {
			names = append(names, cmd.Name)
		}
	}
	return names
}

// help lists chat's commands, then the agent's.
func (c *chatLoop) help() {
	var b strings.Builder
	b.WriteString("chat's commands:\n  /help  this list\n  /quit  leave (also /exit, or Ctrl-D at an empty prompt)\n")
	if cmds := c.commands.Load(); cmds != nil && len(*cmds) > 0 {
		list := append([]schema.SlashCommand(nil), *cmds...)
		sort.Slice(list, func(i, j int) bool { return list[i].Name < list[j].Name })
		fmt.Fprintf(&b, "%s's commands (sent to it as typed):\n", c.env.info.AgentName)
		for _, cmd := range list {
			fmt.Fprintf(&b, "  /%s  %s", cmd.Name, cmd.Description)
			if cmd.Input != nil && cmd.Input.Hint != "" {
				fmt.Fprintf(&b, " (%s)", cmd.Input.Hint)
			}
			b.WriteString("\n")
		}
	} else {
		fmt.Fprintf(&b, "%s has announced no commands.\n", c.env.info.AgentName)
	}
	b.WriteString("Tab completes a command; Ctrl-C stops a turn, and a second Ctrl-C leaves.")
	c.say(b.String())
}

// shorten cuts s to n runes, on one line.
func shorten(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// style colours chat's own lines when stdout is a terminal and NO_COLOR is not set
// (https://no-color.org); otherwise it leaves them as they are.
type style struct{ on bool }

// dim shows s faint: chat's notices, apart from the transcript.
func (s style) dim(t string) string {
	if !s.on {
		return t
	}
	return "\x1b[2m" + t + "\x1b[0m"
}
