package hub

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"agentdesk/backend/agents"
	"agentdesk/backend/store"
)

// Secrets in the saved history. Since this version nothing is saved with a value the agents'
// masker knows (the hub masks a session's events before the recorder sees them). What was
// saved otherwise is masked here:
//
//   - Once per history file, at the first start of the app or of a CLI command that opens it,
//     with every value stored for the agents: what older versions saved in clear. The pass is
//     recorded in the file (store.Redaction.Once) only when every stored value could be read; a
//     keyring that did not answer leaves it to the next start.
//   - Whenever the app stores a secret (an agent saved, an env_var login), with that value:
//     text saved before it was a secret (a key pasted into a prompt, then made an agent's
//     secret).
//
// There is no other rescan. A value stored by another program, or one whose pass the app quit
// before finishing, stays in clear until it is stored again from the app. Recording which
// values were scanned would mean keeping their hashes in the file, and a short value's hash
// is easily reversed.

// oldHistoryPass names the one-time pass over what older versions saved. v2: a secret's token
// is masked alone too (agents.SecretForms), so the pass runs again where v1 ran without it.
const oldHistoryPass = "secrets-masked-v2"

// maskOldHistory runs the one-time pass on st with the values m knows, unless it has run.
// learn teaches m every stored secret (agents.Catalog.LearnSecrets, which may wait on the
// keyring); it is called only when the pass is due. It returns how many rows the pass changed.
// A history it may not write (a read-only copy) is left as it is, without an error: what is
// shown from it is masked all the same. It blocks until the pass is written.
func maskOldHistory(ctx context.Context, st *store.Store, m *agents.Masker, learn func() error) (int, error) {
	done, err := st.Redacted(ctx, oldHistoryPass)
	if err != nil || done {
		return 0, err
	}
	if err := learn(); err != nil {
		return 0, fmt.Errorf("not every secret could be read, so the history was not checked for them (the next start tries again): %w", err)
	}
	n, _, err := st.Redact(ctx, store.Redaction{Values: m.Values(), Mask: m.Mask, Once: oldHistoryPass})
	if errors.Is(err, store.ErrReadOnly) {
		return 0, nil // a copy we may not write: what is printed from it is masked all the same
	}
	return n, err
}

// maskHistoryValues masks values (just stored as secrets) in everything st has saved, in all
// the forms the masker hides (a header's token alone too). m must know them.
func maskHistoryValues(ctx context.Context, st *store.Store, m *agents.Masker, values []string) (int, error) {
	n, _, err := st.Redact(ctx, store.Redaction{Values: agents.SecretForms(values...), Mask: m.Mask})
	return n, err
}

// HistoryMasking is a long-lived front end's passes over its history (the window's): the
// one-time pass, in the background after the keyring is read, and then one pass for each
// secret the catalog stores. The command line's core waits for the one-time pass instead (Open
// without MaskInBackground) and stores no secret.
type HistoryMasking struct {
	once   chan struct{}  // closed once the one-time pass is over
	passes sync.WaitGroup // the passes under way
}

// startHistoryMasking has cat learn every stored secret, in the background, so what is shown
// and exported is masked with them all (also once the one-time pass has run: a value another
// agent's session saved after it is masked too), then runs the one-time pass over st (nil: no
// history), and hooks cat (agents.Catalog.OnStored, so call it before cat is shared) to mask
// each value it stores from now on. Failures are logged with logf; it returns at once.
func startHistoryMasking(ctx context.Context, st *store.Store, cat *agents.Catalog, logf func(string, ...any)) *HistoryMasking {
	hm := &HistoryMasking{once: make(chan struct{})}
	if st != nil {
		m := cat.Masker()
		cat.OnStored(func(values []string) {
			hm.passes.Add(1)
			go func() {
				defer hm.passes.Done()
				if _, err := maskHistoryValues(ctx, st, m, values); err != nil {
					logf("agentdesk history: %v", err)
				}
			}()
		})
		hm.passes.Add(1) // without a history there is nothing a pass half done would leave
	}
	go func() {
		if st != nil {
			defer hm.passes.Done()
		}
		defer close(hm.once)
		if n, err := learnAndMask(ctx, st, cat); err != nil {
			logf("agentdesk history: %v", err)
		} else if n > 0 {
			logf("agentdesk history: masked secret values in %d saved rows", n)
		}
	}()
	return hm
}

// OnceDone is closed when the one-time pass is over (run, found done, or failed).
func (hm *HistoryMasking) OnceDone() <-chan struct{} { return hm.once }

// Wait blocks until every pass started so far has ended: the window waits before it closes the
// store, since a pass half done would leave values in clear until the next start. A nil
// HistoryMasking has none.
func (hm *HistoryMasking) Wait() {
	if hm != nil {
		hm.passes.Wait()
	}
}
