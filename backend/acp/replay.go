package acp

import "agentdesk/backend/acp/schema"

// MaxReplayEntries and MaxReplayBytes bound what a session/load replay folds apart to be matched
// against the saved transcript: updates beyond either bound are only counted.
const (
	MaxReplayEntries = 10000
	MaxReplayBytes   = 16 << 20
)

// replayed is a session/load replay, folded into a scratch transcript of its own: never shown,
// only matched against ours when the agent answers (matchReplay). The journal keeps it whole.
type replayed struct {
	tr      *Transcript
	updates int // session/update messages replayed (metadata excluded)
	bytes   int // their size, up to MaxReplayBytes
	dropped int // updates beyond the bounds, counted only
}

func newReplayed() *replayed { return &replayed{tr: NewTranscript()} }

// add folds one replayed update of size n bytes, within the bounds.
func (r *replayed) add(u schema.Update, n int) {
	r.updates++
	if len(r.tr.entries) >= MaxReplayEntries || r.bytes+n > MaxReplayBytes {
		r.dropped++
		return
	}
	r.bytes += n
	r.tr.Apply(u)
}

// matchReplay finds where our saved entries end in what the agent replayed, by the sequence of
// user prompts (whitespace-normalised): each saved prompt is looked for, in order, among the
// replayed ones. When the last saved prompt is found, added is every replayed entry from the
// next replayed prompt on (turns the agent has beyond ours: it was continued elsewhere); when
// there are no saved prompts, it is every replayed entry. When the saved prompts are not all
// found, nothing is added and matched is false: the replay is not the conversation we kept.
func matchReplay(saved, replay []Entry) (added []Entry, matched bool) {
	var ours []string
	for i := range saved {
		if saved[i].Kind == KindUser {
			ours = append(ours, oneLine(saved[i].Text))
		}
	}
	next := 0 // index in replay after the last matched prompt
	for _, p := range ours {
		found := false
		for ; next < len(replay); next++ {
			if replay[next].Kind == KindUser && oneLine(replay[next].Text) == p {
				next++
				found = true
				break
			}
		}
		if !found {
			return nil, false
		}
	}
	if len(ours) > 0 {
		for next < len(replay) && replay[next].Kind != KindUser {
			next++ // the rest of our last turn, as the agent has it: we keep ours
		}
	}
	return append([]Entry(nil), replay[next:]...), true
}
