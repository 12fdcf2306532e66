package rules

// Set is a list of rules made ready to match: each rule's command words parsed and its path glob
// checked once, by Compile, so that matching a request parses nothing of the rules (a command
// rule's words are a shell parse: with hundreds of rules, parsing them per request cost more than
// everything else). A Set is read-only and safe for concurrent use.
type Set struct {
	rules []Rule
	ready []ready // ready[i] is rules[i] prepared
}

// ready is what matching needs of a rule beyond its fields.
type ready struct {
	words  []string // the command's words (plainCommand), when cmdOK
	cmdOK  bool
	glob   string // the cleaned path glob (cleanGlob), when globOK
	globOK bool
}

// Compile prepares rs for matching. It keeps rs as given (the caller must not change it after);
// a rule whose command or glob is not valid is kept and matches nothing of that kind, as before.
func Compile(rs []Rule) *Set {
	s := &Set{rules: rs, ready: make([]ready, len(rs))}
	for i, r := range rs {
		if r.Command != "" {
			s.ready[i].words, s.ready[i].cmdOK = plainCommand(r.Command)
		}
		if r.Path != "" {
			g, err := cleanGlob(r.Path)
			s.ready[i].glob, s.ready[i].globOK = g, err == nil
		}
	}
	return s
}

// Rules is the list the set was compiled from (not to be changed); nil for a nil set.
func (s *Set) Rules() []Rule {
	if s == nil {
		return nil
	}
	return s.rules
}
