package main

import (
	"context"
	"errors"
	"fmt"
	"log"

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

// oldHistoryPass names the one-time pass over what older versions saved.
const oldHistoryPass = "secrets-masked-v1"

// maskOldHistory runs the one-time pass on st with the values m knows, unless it has run.
// learn teaches m every stored secret (catalog.LearnSecrets, which may wait on the keyring);
// it is called only when the pass is due. It returns how many rows the pass changed.
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

// maskHistoryValues masks values (just stored as secrets) in everything st has saved. m must
// know them.
func maskHistoryValues(ctx context.Context, st *store.Store, m *agents.Masker, values []string) (int, error) {
	n, _, err := st.Redact(ctx, store.Redaction{Values: values, Mask: m.Mask})
	return n, err
}

// startHistoryMasking wires the app's history to its secrets: the one-time pass runs in the
// background (after the keyring is read), and each secret stored from now on is masked in the
// history too. historyMasked is closed when the one-time pass is over; shutdown waits for the
// passes before it closes the store.
func (a *App) startHistoryMasking(ctx context.Context) {
	a.historyMasked = make(chan struct{})
	if a.store == nil {
		go func() {
			_ = a.agents.LearnSecrets() // exports of earlier sessions are masked too
			close(a.historyMasked)
		}()
		return
	}
	m := a.agents.Masker()
	a.agents.stored = func(values []string) {
		a.masking.Add(1)
		go func() {
			defer a.masking.Done()
			if _, err := maskHistoryValues(ctx, a.store, m, values); err != nil {
				log.Printf("agentdesk history: %v", err)
			}
		}()
	}
	a.masking.Add(1)
	go func() {
		defer a.masking.Done()
		defer close(a.historyMasked)
		if n, err := maskOldHistory(ctx, a.store, a.agents.Masker(), a.agents.LearnSecrets); err != nil {
			log.Printf("agentdesk history: %v", err)
		} else if n > 0 {
			log.Printf("agentdesk history: masked secret values in %d saved rows", n)
		}
	}()
}
