package acp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// fs/* methods served to agents (advertised in initialize).
const (
	MethodReadTextFile  = "fs/read_text_file"
	MethodWriteTextFile = "fs/write_text_file"
)

// maxTextFile bounds a file read through the protocol; a larger one is refused, not truncated.
const maxTextFile = 64 << 20

// ReadTextFileParams is fs/read_text_file; Line counts from 1, Limit is a number of lines.
type ReadTextFileParams struct {
	SessionID string `json:"sessionId"`
	Path      string `json:"path"`
	Line      *int   `json:"line,omitempty"`
	Limit     *int   `json:"limit,omitempty"`
}

// WriteTextFileParams is fs/write_text_file.
type WriteTextFileParams struct {
	SessionID string `json:"sessionId"`
	Path      string `json:"path"`
	Content   string `json:"content"`
}

// Folder serves fs/* requests confined to one folder (the session's): a path is resolved through
// its symlinks (for a new file, through those of its nearest existing parent) and refused unless
// it lies inside the folder. Methods do file I/O: call them off the inbound loop.
type Folder struct {
	root string // absolute, symlinks resolved
}

// NewFolder confines file access to dir, which must exist.
func NewFolder(dir string) (*Folder, error) {
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil, fmt.Errorf("session folder %q: %w", dir, err)
	}
	root, err = filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("session folder %q: %w", dir, err)
	}
	return &Folder{root: root}, nil
}

// resolve returns the real path of p if it lies inside the folder, else an *RPCError saying so.
func (f *Folder) resolve(p string) (string, error) {
	if !filepath.IsAbs(p) {
		return "", &RPCError{Code: CodeInvalidParams, Message: fmt.Sprintf("path %q is not absolute: ACP paths must be absolute", p)}
	}
	p = filepath.Clean(p)
	// Resolve the longest existing prefix, so a new file under a symlinked folder is judged by
	// where it will really land.
	existing, rest := p, ""
	for {
		real, err := filepath.EvalSymlinks(existing)
		if err == nil {
			p = filepath.Join(real, rest)
			break
		}
		parent := filepath.Dir(existing)
		if parent == existing {
			break
		}
		rest = filepath.Join(filepath.Base(existing), rest)
		existing = parent
	}
	if p != f.root && !strings.HasPrefix(p, f.root+string(filepath.Separator)) {
		return "", &RPCError{Code: CodeInvalidParams,
			Message: fmt.Sprintf("path %q is outside the session folder %q: agentdesk lets agents read and write only inside it", p, f.root)}
	}
	return p, nil
}

// ReadTextFile answers fs/read_text_file: the file's text, or the lines [line, line+limit).
// A missing file is -32002 (resource not found).
func (f *Folder) ReadTextFile(params json.RawMessage) (any, error) {
	var p ReadTextFileParams
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, &RPCError{Code: CodeInvalidParams, Message: "invalid fs/read_text_file params: " + err.Error()}
	}
	path, err := f.resolve(p.Path)
	if err != nil {
		return nil, err
	}
	st, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, &RPCError{Code: CodeResourceNotFound, Message: "Resource not found: " + p.Path}
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", p.Path, err)
	}
	if st.IsDir() || st.Size() > maxTextFile {
		return nil, &RPCError{Code: CodeInvalidParams, Message: fmt.Sprintf("%s is a folder or larger than 64 MiB", p.Path)}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", p.Path, err)
	}
	if p.Line != nil || p.Limit != nil {
		data = lineRange(data, p.Line, p.Limit)
	}
	return map[string]string{"content": string(data)}, nil
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
// file atomically (a temp file renamed over it), keeping an existing file's mode.
func (f *Folder) WriteTextFile(params json.RawMessage) (any, error) {
	var p WriteTextFileParams
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, &RPCError{Code: CodeInvalidParams, Message: "invalid fs/write_text_file params: " + err.Error()}
	}
	path, err := f.resolve(p.Path)
	if err != nil {
		return nil, err
	}
	mode := fs.FileMode(0o644)
	if st, err := os.Stat(path); err == nil {
		if st.IsDir() {
			return nil, &RPCError{Code: CodeInvalidParams, Message: p.Path + " is a folder"}
		}
		mode = st.Mode().Perm()
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("write %s: %w", p.Path, err)
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".agentdesk-*")
	if err != nil {
		return nil, fmt.Errorf("write %s: %w", p.Path, err)
	}
	_, werr := tmp.WriteString(p.Content)
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr, os.Chmod(tmp.Name(), mode)); err != nil {
		os.Remove(tmp.Name())
		return nil, fmt.Errorf("write %s: %w", p.Path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return nil, fmt.Errorf("write %s: %w", p.Path, err)
	}
	return struct{}{}, nil
}
