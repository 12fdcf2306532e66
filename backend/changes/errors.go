package changes

import "errors"

// ErrNoSnapshot: the ledger has no snapshot for what was asked (a turn saved before the
// ledger existed, or one whose recording failed).
var ErrNoSnapshot = errors.New("no snapshot of the session's folders for this turn")
