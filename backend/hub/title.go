package hub

import (
	"context"
	"time"
)

// pushTitleWait bounds how long a rename waits for the agent to store the title.
const pushTitleWait = 10 * time.Second

// PushTitle tells the agent of live session id the person's name for it (session/set_title,
// where the agent advertises sessionCapabilities.title) after Renamed, and returns the title to
// keep: the one the agent stored (it may normalise it), else title as given. A session that is not
// live, an agent that does not offer it, or one that refuses or does not answer within 10 s leaves
// title as it is (a refusal is logged): the rename is the person's and stands. It waits on the
// agent, never longer than that.
func (h *Hub) PushTitle(ctx context.Context, id, title string) string {
	h.mu.Lock()
	s := h.sessions[id]
	h.mu.Unlock()
	if s == nil {
		return title
	}
	ctx, cancel := context.WithTimeout(ctx, pushTitleWait)
	defer cancel()
	stored, pushed, err := s.SetTitle(ctx, title)
	switch {
	case err != nil:
		h.logf("session %s: the agent did not take the new title: %v", id, err)
		return title
	case !pushed:
		return title
	}
	return stored
}
