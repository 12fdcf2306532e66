package acp

// continuedLocked announces how a reattached session continues, once method (session/resume,
// session/load or session/new) has succeeded: the boundary entry, after it the turns a
// session/load replay has beyond ours (rep), and for a new agent session the summary its next
// prompt carries. The caller holds s.mu.
func (s *Session) continuedLocked(method string, rep *replayed) Continued {
	switch method {
	case MethodSessionResume:
		s.pushChange(s.tr.AddBoundary(Boundary{Kind: BoundaryResumed}))
		return ContinuedResumed
	case MethodSessionLoad:
		b := Boundary{Kind: BoundaryReplayed}
		var added []Entry
		if rep != nil {
			var matched bool
			added, matched = matchReplay(s.tr.Entries(), rep.tr.Entries())
			b.Replayed, b.Added = rep.updates, len(added)
			if !matched {
				b.Summary = "The agent's replay does not hold the saved prompts; the saved transcript is shown as it was, and nothing of the replay was added."
			}
			if rep.dropped > 0 {
				s.cfg.Logf("session %s: %d replayed updates beyond %d entries or %d bytes were not matched",
					s.cfg.ID, rep.dropped, MaxReplayEntries, MaxReplayBytes)
			}
		}
		s.pushChange(s.tr.AddBoundary(b))
		for _, c := range s.tr.Adopt(added) {
			s.pushChange(c)
		}
		return ContinuedReplayed
	}
	entries := s.tr.Entries()
	if !hasPrompt(entries) {
		return ContinuedNew // nothing to tell the agent: no boundary either
	}
	s.pendingSummary = Summarize(entries, s.summaryBudgetLocked(entries))
	s.pushChange(s.tr.AddBoundary(Boundary{Kind: BoundarySummarised, Summary: s.pendingSummary}))
	return ContinuedSummarised
}

// summaryBudgetLocked is the summary's bound in bytes: Config.SummaryBudget, else
// DefaultSummaryBudget, or less when a usage update gave the agent's context size: a quarter of
// that context, at about four characters a token.
func (s *Session) summaryBudgetLocked(entries []Entry) int {
	if s.cfg.SummaryBudget > 0 {
		return s.cfg.SummaryBudget
	}
	budget := DefaultSummaryBudget
	for i := len(entries) - 1; i >= 0; i-- {
		if u := entries[i].Usage; entries[i].Kind == KindUsage && u != nil && u.Size > 0 {
			if ctx := int(min(u.Size, 1<<30)); ctx < budget { // 4 chars × 25 % of the tokens
				budget = ctx
			}
			break
		}
	}
	return budget
}

func hasPrompt(entries []Entry) bool {
	for i := range entries {
		if entries[i].Kind == KindUser {
			return true
		}
	}
	return false
}
