package store

import (
	"context"
	"slices"
	"testing"
)

// A session's additional folders are kept in order, by CreateSession and by a saved copy, and
// a session without any reads back none.
func TestSessionDirsRoundTrip(t *testing.T) {
	s := openTest(t)
	w := s.Writer()
	w.CreateSession(Session{ID: "a", Cwd: "/src/app", Dirs: []string{"/src/lib", "/docs/app guide"}})
	w.CreateSession(Session{ID: "b", Cwd: "/src/app"})
	w.SaveCopy(SessionCopy{Session: Session{ID: "c", Cwd: "/x", Dirs: []string{"/y"}}})
	flush(t, s.Store)
	for id, want := range map[string][]string{"a": {"/src/lib", "/docs/app guide"}, "b": nil, "c": {"/y"}} {
		sess, _, _, err := s.Session(context.Background(), id)
		if err != nil || !slices.Equal(sess.Dirs, want) {
			t.Errorf("session %s dirs %q (%v), want %q", id, sess.Dirs, err, want)
		}
	}
}
