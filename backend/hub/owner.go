package hub

import (
	"context"
	"errors"
	"fmt"

	"agentdesk/backend/store"
)

// One session, one owner: every session this hub makes live (Start, ContinueSaved, Fork) is
// claimed in the store first (store.Store.Claim) and released once it has left the hub and its
// last writes are flushed. A session live in another agentdesk process is refused with the
// store's *store.OwnedError, which names that process; one live in this process already with
// ErrAlreadyLive. So no two processes write the turns of one session.

// defaultOwnerName is how this process describes itself in another's refusal until
// SetOwnerName.
const defaultOwnerName = "another agentdesk"

// SetOwnerName sets how this process is named, to the person another agentdesk process
// refuses one of its sessions to: "the agentdesk window", "agentdesk run". It applies to the
// sessions made live from now on.
func (h *Hub) SetOwnerName(where string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.ownerName = where
}

// claim makes this process the owner of session id (nil lease without a history). A session
// already live in this process is ErrAlreadyLive; one live in another is the store's
// *store.OwnedError.
func (h *Hub) claim(ctx context.Context, id string) (*store.Lease, error) {
	if h.store == nil {
		return nil, nil
	}
	h.mu.Lock()
	where := h.ownerName
	h.mu.Unlock()
	lease, err := h.store.Claim(ctx, id, where)
	var owned *store.OwnedError
	if errors.As(err, &owned) && owned.Here {
		return nil, ErrAlreadyLive
	}
	return lease, err
}

// release gives up the lease of a session that has left the hub (nil: none).
func (h *Hub) release(l *store.Lease) {
	if l == nil {
		return
	}
	if err := l.Release(); err != nil {
		h.logf("%v", err)
	}
}

// refused is err as a refusal to make session id live: verb says what was refused. The store's
// *store.OwnedError already names the session and where it is live: it is returned as it is.
func refused(verb, id string, err error) error {
	if errors.Is(err, store.ErrOwned) {
		return err
	}
	return fmt.Errorf("%s %s: %w", verb, id, err)
}
