package acp

import (
	"fmt"
	"slices"

	"agentdesk/backend/acp/terminal"
)

// NewTerminalID reserves an id for a new terminal of the session ("term-1", "term-2", ...).
func (t *Transcript) NewTerminalID() string {
	t.initTerminals()
	t.nTerms++
	id := fmt.Sprintf("term-%d", t.nTerms)
	t.terms[id] = terminal.View{}
	return id
}

func (t *Transcript) initTerminals() {
	if t.terms == nil {
		t.terms, t.termRefs = map[string]terminal.View{}, map[string][]string{}
	}
}

// SetTerminal records the latest view of terminal id and returns an upsert of every tool card
// whose content shows that terminal. The view is kept for good: a card that names the terminal
// later (or again), even after the terminal was released, shows it too.
func (t *Transcript) SetTerminal(id string, v terminal.View) []Change {
	t.initTerminals()
	t.terms[id] = v
	var out []Change
	refs := t.termRefs[id]
	kept := refs[:0]
	for _, entryID := range refs {
		e := t.entries[t.byID[entryID]]
		if !setTerminalContent(e, id, v) {
			continue // its content was replaced since: it no longer shows the terminal
		}
		kept = append(kept, entryID)
		c := e.clone()
		out = append(out, Change{Entry: &c})
	}
	t.termRefs[id] = kept
	return out
}

// showTerminals fills the terminal items of e's content with what is known of their terminals,
// and remembers which terminals e shows. A terminal that is not ours (some agents send their own
// ids) stays a bare reference.
func (t *Transcript) showTerminals(e *Entry) {
	for _, c := range e.Content {
		if c.Type != "terminal" || c.TerminalID == "" {
			continue
		}
		t.initTerminals()
		if v, ok := t.terms[c.TerminalID]; ok {
			setTerminalContent(e, c.TerminalID, v)
		}
		if !slices.Contains(t.termRefs[c.TerminalID], e.ID) {
			t.termRefs[c.TerminalID] = append(t.termRefs[c.TerminalID], e.ID)
		}
	}
}

// setTerminalContent puts v into every item of e's content that shows terminal id, and reports
// whether there was one.
func setTerminalContent(e *Entry, id string, v terminal.View) bool {
	found := false
	for i := range e.Content {
		c := &e.Content[i]
		if c.Type == "terminal" && c.TerminalID == id {
			c.Output, c.Truncated, c.ExitStatus, c.Input = v.Output, v.Truncated, v.ExitStatus, v.Input
			found = true
		}
	}
	return found
}
