package agents

import (
	"bytes"
	"encoding/json"
	"io"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
)

// Mask is what a secret value becomes wherever agentdesk's text leaves it.
const Mask = "••••••"

// MinSecretLen is the shortest value the Masker hides: shorter values would hide ordinary text
// ("a", "on") everywhere, so the agent editor refuses them as secrets.
const MinSecretLen = 4

// MinTokenLen is the shortest token (or value) masked on its own when a secret is shaped
// "<scheme> <token>" or "key=value" (see Masker.Add). The part is guessed from the value's
// shape, not named secret by the person, and may be an ordinary word ("Token on", "debug=true"):
// 8 characters is the shortest password or key services accept, and few words in a transcript
// are that long and equal to a secret's part by chance.
const MinTokenLen = 8

// Masker replaces known secret values with Mask. It learns values with Add (never forgets them
// during a run: a deleted secret may still be in a transcript) and is safe for concurrent use;
// Mask and MaskBytes never block on Add.
type Masker struct {
	mu      sync.Mutex
	values  map[string]bool
	r       atomic.Pointer[maskSet] // nil: nothing to mask
	longest atomic.Int64
}

// NewMasker returns a Masker that knows no value yet.
func NewMasker() *Masker { return &Masker{values: map[string]bool{}} }

// Add teaches the masker values and their forms (SecretForms): each value at least
// MinSecretLen long, its token alone when it is shaped "<scheme> <token>" or "key=value", and
// the JSON-escaped form of each, as it appears inside a raw protocol message.
func (m *Masker) Add(values ...string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	changed := false
	for _, f := range SecretForms(values...) {
		if !m.values[f] {
			m.values[f], changed = true, true
		}
	}
	if !changed {
		return
	}
	all := make([]string, 0, len(m.values))
	for v := range m.values {
		all = append(all, v)
	}
	// Longest first, so a secret that contains another is masked whole.
	sort.Slice(all, func(i, j int) bool { return len(all[i]) > len(all[j]) })
	pairs := make([]string, 0, 2*len(all))
	for _, v := range all {
		pairs = append(pairs, v, Mask)
	}
	set := &maskSet{r: strings.NewReplacer(pairs...), values: all, raw: make([][]byte, len(all))}
	for i, v := range all {
		set.raw[i] = []byte(v)
	}
	m.r.Store(set)
	m.longest.Store(int64(len(all[0])))
}

// SecretForms is every text a Masker given values hides: each value at least MinSecretLen
// long; when it is shaped "<scheme> <token>" (an Authorization header's "Bearer …", "Basic …",
// "Token …") or "key=value", its token (value) alone, when at least MinTokenLen long, since an
// agent given the header may echo only the token; and the JSON-escaped form of each. The
// history's passes look for these in what was saved.
func SecretForms(values ...string) []string {
	var forms []string
	for _, v := range values {
		if len(v) < MinSecretLen {
			continue
		}
		for _, s := range append([]string{v}, secretParts(v)...) {
			forms = append(forms, s)
			if q, _ := json.Marshal(s); string(q[1:len(q)-1]) != s {
				forms = append(forms, string(q[1:len(q)-1]))
			}
		}
	}
	return forms
}

// secretParts is what of v is a secret on its own: the token of "<scheme> <token>", the value
// of "key=value" (and the token of a value "key=Bearer <token>"), those MinTokenLen long.
func secretParts(v string) []string {
	var parts []string
	for {
		scheme, token, spaced := strings.Cut(v, " ")
		key, value, keyed := strings.Cut(v, "=")
		switch {
		case spaced && isWord(scheme):
			v = strings.TrimSpace(token)
		case keyed && isWord(key):
			v = value
		default:
			return parts
		}
		if len(v) < MinTokenLen {
			return parts
		}
		parts = append(parts, v)
	}
}

// isWord reports an auth scheme's or a key's shape: letters, digits, '_', '-', '.'.
func isWord(s string) bool {
	return s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.") == ""
}

// Empty reports whether the masker knows no value (so masking would change nothing): callers
// can then skip work done only to mask, such as encoding a whole snapshot.
func (m *Masker) Empty() bool { return m == nil || m.r.Load() == nil }

// Longest is the length in bytes of the longest value masked (0 when Empty): text that may have
// been cut inside a value needs that many bytes minus one of what came before it.
func (m *Masker) Longest() int {
	if m == nil {
		return 0
	}
	return int(m.longest.Load())
}

// maskSet is what the Masker knows at one time, replaced whole by Add: the replacer, and the
// values it replaces as strings and as bytes, for telling cheaply that text holds none of them.
type maskSet struct {
	r      *strings.Replacer
	values []string
	raw    [][]byte
}

// Mask returns s with every known value replaced. A nil Masker masks nothing. Text that holds
// no value is returned as it is: the replacer would copy it twice.
func (m *Masker) Mask(s string) string {
	if m == nil {
		return s
	}
	set := m.r.Load()
	if set == nil || !slices.ContainsFunc(set.values, func(v string) bool { return strings.Contains(s, v) }) {
		return s
	}
	return set.r.Replace(s)
}

// Values returns every value the masker hides, their JSON-escaped forms included, longest
// first, so that replacing them in that order masks a value that contains another whole. It is
// for finding text stored before a value was known (the history's migration); the values never
// leave the process.
func (m *Masker) Values() []string {
	if m == nil {
		return nil
	}
	m.mu.Lock()
	all := make([]string, 0, len(m.values))
	for v := range m.values {
		all = append(all, v)
	}
	m.mu.Unlock()
	sort.Slice(all, func(i, j int) bool { return len(all[i]) > len(all[j]) || len(all[i]) == len(all[j]) && all[i] < all[j] })
	return all
}

// MaskBytes is Mask for a byte slice; b itself is never modified. A b that holds no value is
// returned as it is: every protocol message is journaled through here, a huge line too, and
// masking copied each three times.
func (m *Masker) MaskBytes(b []byte) []byte {
	if m == nil {
		return b
	}
	set := m.r.Load()
	if set == nil || !slices.ContainsFunc(set.raw, func(v []byte) bool { return bytes.Contains(b, v) }) {
		return b
	}
	return []byte(set.r.Replace(string(b)))
}

// Writer returns a writer that masks what it passes to w, also when a value is split across
// writes (streamed text arrives in chunks): it holds back the end of a write that could begin
// a value until the next write or Flush. Call Flush when the output is complete.
func (m *Masker) Writer(w io.Writer) *MaskWriter { return &MaskWriter{m: m, w: w} }

// MaskWriter is the Masker's streaming writer; see Masker.Writer. Safe for concurrent use.
type MaskWriter struct {
	m       *Masker
	w       io.Writer
	mu      sync.Mutex
	pending string
}

// Write masks p (with any text held back before it) and writes what can no longer be the
// start of a value. It reports len(p) written unless w fails.
func (mw *MaskWriter) Write(p []byte) (int, error) {
	mw.mu.Lock()
	defer mw.mu.Unlock()
	s := mw.m.Mask(mw.pending + string(p))
	keep := mw.heldBack(s)
	mw.pending = s[len(s)-keep:]
	if _, err := io.WriteString(mw.w, s[:len(s)-keep]); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes whatever is held back.
func (mw *MaskWriter) Flush() error {
	mw.mu.Lock()
	defer mw.mu.Unlock()
	s := mw.m.Mask(mw.pending)
	mw.pending = ""
	_, err := io.WriteString(mw.w, s)
	return err
}

// heldBack is the length of the longest suffix of s that is a proper prefix of a known value.
func (mw *MaskWriter) heldBack(s string) int {
	if mw.m == nil {
		return 0
	}
	longest := int(mw.m.longest.Load())
	mw.m.mu.Lock()
	defer mw.m.mu.Unlock()
	for n := min(len(s), longest-1); n > 0; n-- {
		suffix := s[len(s)-n:]
		for v := range mw.m.values {
			if len(v) > n && strings.HasPrefix(v, suffix) {
				return n
			}
		}
	}
	return 0
}
