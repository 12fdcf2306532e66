package fsys

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"sync"

	"agentdesk/backend/acp/jsonrpc"
	"agentdesk/backend/acp/schema"
)

// maxTextFile bounds a file read through the protocol; a larger one is refused, not truncated.
const maxTextFile = 64 << 20

// Folder serves fs/* requests confined to one folder (the session's). The folder is opened once,
// and every path is opened beneath that descriptor, never looked up again by name (see
// openBeneath): links inside the folder work, none leads out of it, and a link swapped while a
// request runs cannot make it read or write outside. Only regular files are read or written: a
// FIFO, a device or a socket is refused, and opening one never blocks. Methods do file I/O: call
// them off the inbound loop. They are safe for concurrent use; call Close once none runs.
type Folder struct {
	root  string // absolute, symlinks resolved
	given string // absolute and clean as given: agents name paths under it, links and all
	fd    handle // the folder, opened once
	once  sync.Once
}

// NewFolder opens dir, which must exist, to confine file access to it. Close releases it.
func NewFolder(dir string) (*Folder, error) {
	given, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("session folder %q: %w", dir, err)
	}
	root, err := filepath.EvalSymlinks(given)
	if err != nil {
		return nil, fmt.Errorf("session folder %q: %w", dir, err)
	}
	fd, err := openRoot(root)
	if err != nil {
		return nil, fmt.Errorf("session folder %q: %w", dir, err)
	}
	return &Folder{root: root, given: given, fd: fd}, nil
}

// Close releases the folder. Call it once no method runs; later calls do nothing.
func (f *Folder) Close() error {
	var err error
	f.once.Do(func() { err = closeRoot(f.fd) })
	return err
}

// inside returns abs relative to the folder ("" for the folder itself), when abs names a path
// under the folder by its real path or by the path it was given as.
func (f *Folder) inside(abs string) (string, bool) {
	if rel, ok := Under(f.root, abs); ok {
		return rel, true
	}
	return Under(f.given, abs)
}

// Under returns abs relative to base when it is base or below it (both absolute and clean):
// the lexical check, for paths whose links are already resolved.
func Under(base, abs string) (string, bool) {
	if abs == base {
		return "", true
	}
	return strings.CutPrefix(abs, strings.TrimSuffix(base, string(filepath.Separator))+string(filepath.Separator))
}

// relative returns the agent's absolute path p relative to the folder, or an *jsonrpc.Error when p is
// not absolute or not inside. A path through another name of the folder (a link to it) is judged
// by where it lands; that lookup only picks the name inside the folder: the open that follows is
// confined beneath the folder whatever changes meanwhile.
func (f *Folder) relative(p string) (string, error) {
	if !filepath.IsAbs(p) {
		return "", &jsonrpc.Error{Code: schema.CodeInvalidParams, Message: fmt.Sprintf("path %q is not absolute: ACP paths must be absolute", p)}
	}
	p = filepath.Clean(p)
	if rel, ok := f.inside(p); ok {
		return rel, nil
	}
	if rel, ok := f.inside(realPath(p)); ok {
		return rel, nil
	}
	return "", f.outside(p)
}

func (f *Folder) outside(p string) *jsonrpc.Error {
	return &jsonrpc.Error{Code: schema.CodeInvalidParams,
		Message: fmt.Sprintf("path %q is outside the session folder %q: agentdesk lets agents read and write only inside it", p, f.root)}
}

// resolve returns the real path of p if it lies inside the folder, else an *jsonrpc.Error saying so.
// It looks names up, so it suits listings and the user's attachments, not an agent's opens.
func (f *Folder) resolve(p string) (string, error) {
	if !filepath.IsAbs(p) {
		return "", &jsonrpc.Error{Code: schema.CodeInvalidParams, Message: fmt.Sprintf("path %q is not absolute: ACP paths must be absolute", p)}
	}
	real := realPath(filepath.Clean(p))
	if _, ok := Under(f.root, real); !ok {
		return "", f.outside(real)
	}
	return real, nil
}

// realPath is p with the links of its longest existing prefix resolved, so a new file under a
// linked folder is judged by where it will really land.
func realPath(p string) string {
	existing, rest := p, ""
	for {
		if real, err := filepath.EvalSymlinks(existing); err == nil {
			return filepath.Join(real, rest)
		}
		parent := filepath.Dir(existing)
		if parent == existing {
			return p
		}
		rest = filepath.Join(filepath.Base(existing), rest)
		existing = parent
	}
}

// ReadTextFile answers fs/read_text_file: the file's text, or the lines [line, line+limit).
// A missing file is -32002 (resource not found); a file that is not regular, or larger than
// 64 MiB, is -32602.
func (f *Folder) ReadTextFile(params json.RawMessage) (any, error) {
	return (&Folders{list: []*Folder{f}}).ReadTextFile(params)
}

// lineRange cuts data to lines [line, line+limit), counting from 1.
func lineRange(data []byte, line, limit *int) []byte {
	start := 0
	if line != nil && *line > 1 {
		for n := 1; n < *line && start < len(data); n++ {
			i := bytes.IndexByte(data[start:], '\n')
			if i < 0 {
				return nil
			}
			start += i + 1
		}
	}
	end := len(data)
	if limit != nil && *limit >= 0 {
		end = start
		for n := 0; n < *limit && end < len(data); n++ {
			i := bytes.IndexByte(data[end:], '\n')
			if i < 0 {
				end = len(data)
				break
			}
			end += i + 1
		}
	}
	return data[start:end]
}

// WriteTextFile answers fs/write_text_file: it creates missing parent folders and replaces the
// file atomically (a temp file renamed over it, in the same folder), keeping an existing file's
// mode. A link inside the folder is written through; anything but a regular file is refused.
func (f *Folder) WriteTextFile(params json.RawMessage) (any, error) {
	return (&Folders{list: []*Folder{f}}).WriteTextFile(params)
}
