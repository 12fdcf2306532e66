package rules

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"regexp"
	"strings"
)

// Bounds of the input the matcher reads; beyond them the input cannot be placed (asked).
const (
	maxInputDepth  = 64
	maxInputTokens = 100_000
)

// textKeys are raw-input fields that carry text a tool writes, sends or shows, never a path
// (keys compared lower-case without _ and -: old_string and oldString alike).
var textKeys = map[string]bool{
	"content": true, "oldstring": true, "newstring": true, "oldtext": true, "newtext": true, "newsource": true,
	"text": true, "description": true, "prompt": true, "query": true, "message": true, "title": true,
	"reason": true, "explanation": true, "activeform": true, "mimetype": true, "data": true,
	"unifieddiff": true, "diff": true,
}

// pathKeys are raw-input fields whose strings are paths whatever they look like, beside any
// field whose name says path, file, dir or folder (file_path, paths, directory, notebook_path).
var pathKeys = map[string]bool{
	"source": true, "destination": true, "target": true, "cwd": true, "src": true, "dst": true,
	"dest": true, "root": true, "uri": true, "location": true, "changes": true,
}

// pathMapKeys are fields holding an object keyed by path (Codex's patch: changes → {path: …}).
var pathMapKeys = map[string]bool{"changes": true, "files": true}

// urlScheme is the start of a URL that names no file (https://…); file: URIs are paths.
var urlScheme = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*://`)

// inputPaths is every string in a tool call's raw JSON a tool could use as a path: any string
// under a path field, an object key under a field keyed by path, and every other string (or
// key) that reads as one (looksLikePath), whatever its depth; text fields are skipped, and so
// is an execute call's command line (command, cmd), which the matcher reads as a command. ok
// is false when raw is not JSON or is deeper or larger than the matcher reads.
func inputPaths(raw json.RawMessage, execute bool) (paths []string, ok bool) {
	type frame struct {
		object, wantKey bool
		key             string // the object's current key; an array's, its parent's
		parent          string // the key the object or array is the value of
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var stack []frame
	valueDone := func() {
		if n := len(stack); n > 0 && stack[n-1].object {
			stack[n-1].wantKey = true
		}
	}
	for tokens := 0; ; tokens++ {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return paths, len(stack) == 0
		}
		if err != nil || tokens == maxInputTokens {
			return nil, false
		}
		key := ""
		if n := len(stack); n > 0 {
			key = stack[n-1].key
			if stack[n-1].wantKey {
				if k, isKey := tok.(string); isKey {
					stack[n-1].key, stack[n-1].wantKey = k, false
					if pathMapKeys[normKey(stack[n-1].parent)] || looksLikePath(k) {
						paths = append(paths, k)
					}
					continue
				}
			}
		}
		switch t := tok.(type) {
		case json.Delim:
			if t == '{' || t == '[' {
				if len(stack) == maxInputDepth {
					return nil, false
				}
				stack = append(stack, frame{object: t == '{', wantKey: t == '{', key: key, parent: key})
				continue
			}
			stack = stack[:len(stack)-1]
			valueDone()
		case string:
			if p, isPath := inputPath(key, t, execute); isPath {
				paths = append(paths, p)
			}
			valueDone()
		default:
			valueDone()
		}
	}
}

// inputPath reports whether the string s under the field key is a path a tool could use, and
// gives it trimmed.
func inputPath(key, s string, execute bool) (string, bool) {
	k := normKey(key)
	s = strings.TrimSpace(s)
	switch {
	case s == "", textKeys[k], execute && (k == "command" || k == "cmd"):
		return "", false
	case urlScheme.MatchString(s) && !strings.HasPrefix(strings.ToLower(s), "file:"):
		return "", false // a URL names no file here
	case pathKeys[k] || strings.Contains(k, "path") || strings.Contains(k, "file") ||
		strings.Contains(k, "dir") || strings.Contains(k, "folder"):
		return s, true
	}
	return s, looksLikePath(s)
}

// looksLikePath reports whether s reads as a path: one line that starts with /, ~, $ or . or
// is a file: URI, or has a / in it (and is not a URL).
func looksLikePath(s string) bool {
	if s == "" || strings.ContainsAny(s, "\n\r") || urlScheme.MatchString(s) && !strings.HasPrefix(strings.ToLower(s), "file:") {
		return false
	}
	return strings.ContainsAny(s[:1], "/~$.") || strings.Contains(s, "/") || strings.HasPrefix(strings.ToLower(s), "file:")
}

// normKey is a field name lower-case without _ and -.
func normKey(k string) string {
	return strings.NewReplacer("_", "", "-", "").Replace(strings.ToLower(k))
}
