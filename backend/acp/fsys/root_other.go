//go:build !unix

package fsys

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"agentdesk/backend/acp/jsonrpc"
	"agentdesk/backend/acp/schema"
)

// Where there are no descriptor-relative opens (Windows), a folder is an os.Root: Go's
// confined opens, which refuse any path (a link included) that leads out of the folder.

// handle is an open folder.
type handle = *os.Root

func openRoot(root string) (handle, error) { return os.OpenRoot(root) }

func closeRoot(h handle) error { return h.Close() }

var errTooLarge = errors.New("larger than 64 MiB")

// notRegularError is a file that is not a regular file.
type notRegularError struct{ mode fs.FileMode }

func (e notRegularError) Error() string { return kindOf(e.mode) + ", not a regular file" }

// readBeneath returns the content of the regular file rel, at most maxTextFile bytes.
func (f *Folder) readBeneath(rel string) ([]byte, error) {
	if st, err := f.fd.Lstat(rel); err == nil && !st.Mode().IsRegular() && st.Mode()&fs.ModeSymlink == 0 {
		return nil, notRegularError{st.Mode()}
	}
	file, err := f.fd.Open(rel)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	st, err := file.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, notRegularError{st.Mode()}
	}
	if st.Size() > maxTextFile {
		return nil, errTooLarge
	}
	data, err := io.ReadAll(io.LimitReader(file, maxTextFile+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxTextFile {
		return nil, errTooLarge
	}
	return data, nil
}

// writeBeneath replaces the regular file rel (or creates it, with its missing folders) with
// data: a new file beside it renamed over it, all inside the folder's root.
func (f *Folder) writeBeneath(rel string, data []byte) error {
	mode := fs.FileMode(0o644)
	switch st, err := f.fd.Stat(rel); {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return err
	case !st.Mode().IsRegular():
		return notRegularError{st.Mode()}
	default:
		mode = st.Mode().Perm()
	}
	if dir := filepath.Dir(rel); dir != "." {
		if err := f.fd.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	var r [6]byte
	_, _ = rand.Read(r[:])
	tmp := filepath.Join(filepath.Dir(rel), "."+filepath.Base(rel)+".agentdesk-"+hex.EncodeToString(r[:]))
	file, err := f.fd.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return err
	}
	_, werr := file.Write(data)
	if err := errors.Join(werr, file.Close()); err != nil {
		_ = f.fd.Remove(tmp)
		return err
	}
	if err := f.fd.Rename(tmp, rel); err != nil {
		_ = f.fd.Remove(tmp)
		return err
	}
	return nil
}

// pathError turns what went wrong with the agent's path p into the answer (see fsio.go).
func (f *Folder) pathError(op, p, rel string, err error) error {
	var nr notRegularError
	switch {
	case errors.As(err, &nr):
		return &jsonrpc.Error{Code: schema.CodeInvalidParams,
			Message: fmt.Sprintf("cannot %s %s: it is %s, not a regular file; agentdesk reads and writes only regular files", op, p, kindOf(nr.mode))}
	case errors.Is(err, errTooLarge):
		return &jsonrpc.Error{Code: schema.CodeInvalidParams, Message: fmt.Sprintf("%s is larger than 64 MiB: agentdesk reads files of at most 64 MiB", p)}
	case op == "read" && errors.Is(err, fs.ErrNotExist):
		return &jsonrpc.Error{Code: schema.CodeResourceNotFound, Message: "Resource not found: " + p}
	}
	return fmt.Errorf("%s %s: %w", op, p, err)
}

// kindOf names the type of file of mode for a person.
func kindOf(mode fs.FileMode) string {
	switch {
	case mode&fs.ModeNamedPipe != 0:
		return "a FIFO (named pipe)"
	case mode&fs.ModeCharDevice != 0:
		return "a character device"
	case mode&fs.ModeDevice != 0:
		return "a block device"
	case mode&fs.ModeSocket != 0:
		return "a socket"
	case mode.IsDir():
		return "a folder"
	case mode&fs.ModeSymlink != 0:
		return "a symbolic link"
	case mode.IsRegular():
		return "a regular file"
	}
	return "a special file"
}
