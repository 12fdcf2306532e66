package fsys

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"agentdesk/backend/acp/jsonrpc"
	"agentdesk/backend/acp/schema"
)

// Folders is every folder of a session: its cwd first, then its additional directories (ACP's
// additionalDirectories, schema 1.21). The agent's fs/* requests, its terminals' working
// folders, the user's attachments and the file picker are confined to them: a path is served by
// the first folder it lies in, through that Folder's confined opens, so each folder keeps every
// guarantee Folder gives. Methods do file I/O: call them off the inbound loop. They are safe for
// concurrent use; call Close once none runs.
type Folders struct {
	list []*Folder
}

// NewFolders opens cwd and each of extra (all must exist). Close releases them.
func NewFolders(cwd string, extra []string) (*Folders, error) {
	fs := &Folders{}
	for _, dir := range append([]string{cwd}, extra...) {
		f, err := NewFolder(dir)
		if err != nil {
			fs.Close()
			return nil, err
		}
		fs.list = append(fs.list, f)
	}
	return fs, nil
}

// Close releases every folder; later calls do nothing.
func (fs *Folders) Close() error {
	var first error
	for _, f := range fs.list {
		if err := f.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// pick returns the folder an agent's absolute path p lies in and p relative to it, or an
// *jsonrpc.Error when p is not absolute or lies in none of them.
func (fs *Folders) pick(p string) (*Folder, string, error) {
	var err error
	for _, f := range fs.list {
		var rel string
		if rel, err = f.relative(p); err == nil {
			return f, rel, nil
		}
		if !filepath.IsAbs(p) {
			return nil, "", err
		}
	}
	return nil, "", fs.outside(p)
}

// resolve returns the real path of p when it lies in one of the folders (see Folder.resolve).
func (fs *Folders) resolve(p string) (string, error) {
	var err error
	for _, f := range fs.list {
		var real string
		if real, err = f.resolve(p); err == nil {
			return real, nil
		}
	}
	if len(fs.list) == 1 || !filepath.IsAbs(p) {
		return "", err
	}
	return "", fs.outside(p)
}

// Resolve returns the real path of p (absolute; symlinks of its longest existing prefix
// resolved) when it lies in one of the folders, else an error saying it is outside them. It
// does not say whether p exists. For callers outside the engine (the window's editor opener).
func (fs *Folders) Resolve(p string) (string, error) { return fs.resolve(p) }

// Len is how many folders there are (the cwd and the additional ones).
func (fs *Folders) Len() int { return len(fs.list) }

// outside is the error for a path in none of the folders, naming them.
func (fs *Folders) outside(p string) *jsonrpc.Error {
	if len(fs.list) == 1 {
		return fs.list[0].outside(p)
	}
	roots := make([]string, len(fs.list))
	for i, f := range fs.list {
		roots[i] = f.root
	}
	return &jsonrpc.Error{Code: schema.CodeInvalidParams, Message: fmt.Sprintf(
		"path %q is outside the session's folders (%s): agentdesk lets agents read and write only inside them", p, strings.Join(roots, ", "))}
}

// ReadTextFile answers fs/read_text_file (see Folder.ReadTextFile) from the folder the path is in.
func (fs *Folders) ReadTextFile(params json.RawMessage) (any, error) {
	p, err := jsonrpc.DecodeParams[schema.ReadTextFileParams](schema.MethodReadTextFile, params)
	if err != nil {
		return nil, err
	}
	f, rel, err := fs.pick(p.Path)
	if err != nil {
		return nil, err
	}
	data, err := f.readBeneath(rel)
	if err != nil {
		return nil, f.pathError("read", p.Path, rel, err)
	}
	if p.Line != nil || p.Limit != nil {
		data = lineRange(data, p.Line, p.Limit)
	}
	return map[string]string{"content": string(data)}, nil
}

// WriteTextFile answers fs/write_text_file (see Folder.WriteTextFile) in the folder the path is in.
func (fs *Folders) WriteTextFile(params json.RawMessage) (any, error) {
	p, err := jsonrpc.DecodeParams[schema.WriteTextFileParams](schema.MethodWriteTextFile, params)
	if err != nil {
		return nil, err
	}
	f, rel, err := fs.pick(p.Path)
	if err != nil {
		return nil, err
	}
	if err := f.writeBeneath(rel, []byte(p.Content)); err != nil {
		return nil, f.pathError("write", p.Path, rel, err)
	}
	return struct{}{}, nil
}

// FindFiles lists up to limit files of the folders for the file picker (see Folder.FindFiles):
// the cwd's first, with paths relative to it, then each additional folder's, with absolute paths
// (which attachments take as they are).
func (fs *Folders) FindFiles(query string, limit int) []FolderFile {
	out := fs.list[0].FindFiles(query, limit)
	for _, f := range fs.list[1:] {
		if len(out) >= limit {
			break
		}
		for _, ff := range f.FindFiles(query, limit-len(out)) {
			ff.Path = filepath.ToSlash(filepath.Join(f.given, filepath.FromSlash(ff.Path)))
			out = append(out, ff)
		}
	}
	return out
}
