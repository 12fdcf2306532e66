//go:build unix

package fsys_test

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"agentdesk/backend/acp/acptest"
	"agentdesk/backend/acp/fsys"
	"agentdesk/backend/acp/schema"
)

// hangGuard is how long a test waits for what must happen at once; only a hung test reaches it.
const hangGuard = 20 * time.Second

// TestFolderRefusesFilesThatAreNotRegular: a FIFO with no writer (a read would block for ever)
// and a socket are refused with -32602 naming the path and what it is, at once; a write to them
// is refused and leaves them as they were.
func TestFolderRefusesFilesThatAreNotRegular(t *testing.T) { refusesSpecialFiles(t) }

// TestFolderRefusesFilesThatAreNotRegularWithoutOpenat2: the same when every open walks.
func TestFolderRefusesFilesThatAreNotRegularWithoutOpenat2(t *testing.T) {
	walking(t, refusesSpecialFiles)
}

func refusesSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe")
	if err := unix.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "s.sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	f, err := fsys.NewFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for path, what := range map[string]string{fifo: "a FIFO", sock: "a socket"} {
		done := make(chan error, 1)
		go func() {
			_, err := f.ReadTextFile(acptest.Params(t, schema.ReadTextFileParams{Path: path}))
			done <- err
		}()
		select {
		case err := <-done:
			if acptest.RPCCode(err) != schema.CodeInvalidParams || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), what) {
				t.Errorf("read %s: %v, want -32602 naming it and saying it is %s", path, err, what)
			}
		case <-time.After(hangGuard):
			t.Fatalf("the read of %s was never answered", path)
		}
		_, err := f.WriteTextFile(acptest.Params(t, schema.WriteTextFileParams{Path: path, Content: "x"}))
		if acptest.RPCCode(err) != schema.CodeInvalidParams || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), what) {
			t.Errorf("write %s: %v, want -32602 naming it and saying it is %s", path, err, what)
		}
	}
	if st, err := os.Lstat(fifo); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		t.Fatalf("the FIFO was replaced: %v, %v", st.Mode(), err)
	}
	if _, err := f.ReadTextFile(acptest.Params(t, schema.ReadTextFileParams{Path: dir})); acptest.RPCCode(err) != schema.CodeInvalidParams || !strings.Contains(err.Error(), "a folder") {
		t.Errorf("read of the folder: %v, want -32602 saying it is a folder", err)
	}
}
