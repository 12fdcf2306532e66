// Package rules is agentdesk's own permission rules: what a person decided once ("always allow
// reads in this project for Claude Code"), matched against every session/request_permission
// before a prompt is shown.
//
// Guarantees:
//   - A rule matches only what all of its set fields match; an empty field matches anything.
//   - The most specific matching rule wins; at equal specificity a reject beats an allow, so two
//     rules that disagree never allow by accident.
//   - A rule with a folder matches only a request whose every path is in that folder (and, for
//     a request that names no path or runs a command, whose working folder is): a path in
//     another folder of the session is not the rule's. A path glob is judged relative to the
//     rule's folder (a rule for any project: the session folder that holds the path).
//   - Every path a request names is judged: its locations, its diffs' paths, every string of
//     its raw input (at any depth, and the keys of a map keyed by path) that a tool could use
//     as a path, and the path-like words of its command line. Paths are cleaned, `~`, `$HOME`,
//     `${HOME}` and `file:` URIs resolved, and symlinks followed before they are compared.
//   - An allow never answers a request that names a path outside the session's folders, nor
//     one with input the matcher cannot place (`~name`, another variable, a `file:` URI of
//     another host, a control character, raw input that is not JSON or too deep, a command
//     line that is not one plain command or passes an option that runs, evaluates or loads
//     something else): the person is asked. A reject may still answer it.
//   - A command rule matches only one plain command whose leading words are the rule's words,
//     compared whole: a command line with `;`, `&&`, `||`, a pipe, a redirection, a subshell, a
//     substitution or a variable matches no command rule (it is asked).
//   - Matching compares bytes: a look-alike character (a Cyrillic "о" for a Latin "o") is
//     another character, and the rule does not match.
//
// The package decides nothing about options: OptionFor picks the agent's own option for a
// decision, and a request without such an option is asked, never guessed.
package rules

import "fmt"

// Decisions a rule makes.
const (
	Allow  = "allow"
	Reject = "reject"
)

// Rule is one decision a person made once. Empty fields match anything.
type Rule struct {
	ID string `json:"id"`
	// AgentID is the agent the rule is for ("" any agent).
	AgentID string `json:"agentId,omitempty"`
	// Folder is the project folder, absolute ("" any folder). It matches a request whose paths
	// are all in Folder or beneath it (one that names no path or runs a command: whose session's
	// working folder is).
	Folder string `json:"folder,omitempty"`
	// Kind is the ACP tool kind (read, edit, delete, move, search, execute, think, fetch, other).
	Kind string `json:"kind,omitempty"`
	// Tool is the tool's own name as the agent sends it (ACP 1.35 tool-call name: "Bash"), or
	// for a call without a name its title, matched whole.
	Tool string `json:"tool,omitempty"`
	// Path is a glob (doublestar: `**` spans folders) relative to Folder (no Folder: to the
	// session folder that holds the path).
	Path string `json:"path,omitempty"`
	// Command is the leading words of an execute call's command line ("go test"): that program
	// and subcommand with ordinary arguments.
	Command  string `json:"command,omitempty"`
	Decision string `json:"decision"`
	Disabled bool   `json:"disabled,omitempty"`
}

// Validate says what is wrong with r for a person to fix, or nil. The error names the rule by
// its id when it has one.
func (r Rule) Validate() error {
	if err := r.validate(); err != nil {
		if r.ID == "" {
			return err
		}
		return fmt.Errorf("rule %q: %w", r.ID, err)
	}
	return nil
}

func (r Rule) validate() error {
	if r.Decision != Allow && r.Decision != Reject {
		return fmt.Errorf("the decision must be %q or %q, not %q", Allow, Reject, r.Decision)
	}
	if err := checkFolder(r.Folder); err != nil {
		return err
	}
	if r.Path != "" {
		if _, err := cleanGlob(r.Path); err != nil {
			return err
		}
	}
	if r.Command != "" {
		words, ok := plainCommand(r.Command)
		if !ok {
			return fmt.Errorf("the command prefix %q must be plain words (no ;, &&, |, redirections or $)", r.Command)
		}
		for _, w := range words {
			if injects(w) {
				return fmt.Errorf("the command prefix %q names the option %s, which runs or loads something else: "+
					"name the program and its subcommand only (like go test)", r.Command, w)
			}
		}
	}
	return nil
}

// specificity orders matching rules: a rule that names more of the request is more specific;
// the path and the command weigh most (they name what is touched), then the tool, the kind, the
// folder and the agent.
func (r Rule) specificity() int {
	n := 0
	for _, f := range []struct {
		set    bool
		weight int
	}{{r.Path != "", 32}, {r.Command != "", 32}, {r.Tool != "", 8}, {r.Kind != "", 4}, {r.Folder != "", 2}, {r.AgentID != "", 1}} {
		if f.set {
			n += f.weight
		}
	}
	return n
}
