package export

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestExportFileName(t *testing.T) {
	long := strings.Repeat("é", 100)
	for _, c := range []struct{ title, want string }{
		{"Fix the build", "Fix the build.md"},
		{"  ../../etc/passwd  ", "etc-passwd.md"},
		{".hidden", "hidden.md"},
		{"a\tb\r\nc\x00d\x1b[31m", "a b c d [31m.md"},
		{`what: "this" <or> that? a|b*`, "what this or that a b.md"},
		{"Fix the build in src/main.go: it fails on CI", "Fix the build in src-main.go it fails on CI.md"},
		{"invoice\u202egpj.exe", "invoicegpj.exe.md"},
		{"", "agentdesk session.md"},
		{" / ", "agentdesk session.md"},
		{long, strings.Repeat("é", 80) + ".md"},
		{strings.Repeat("日本", 60), strings.Repeat("日本", 33) + ".md"}, // 198 bytes: one more would pass 200
	} {
		if got := FileName(c.title, "md"); got != c.want {
			t.Errorf("FileName(%q) = %q, want %q", c.title, got, c.want)
		}
		if got := FileName(c.title, "md"); len(got) > 255 {
			t.Errorf("FileName(%q) is %d bytes", c.title, len(got))
		}
	}
}

func TestDescribeSaveErrorSaysWhatToDo(t *testing.T) {
	path := "/home/me/out/session.md"
	for _, c := range []struct {
		errno syscall.Errno
		want  string
	}{
		{syscall.ENOSPC, "the disk is full. Free some space"},
		{syscall.EDQUOT, "the disk is full"},
		{syscall.EACCES, "you may not write to the folder /home/me/out. Choose a folder of yours"},
		{syscall.EROFS, "the disk is read-only"},
		{syscall.ENOENT, "the folder /home/me/out does not exist. Choose an existing folder"},
		{syscall.EISDIR, "a folder has that name"},
		{syscall.EIO, "input/output error. Choose another folder"},
	} {
		err := fmt.Errorf("write %s: %w", path, &os.PathError{Op: "write", Path: path, Err: c.errno})
		if got := DescribeSaveError(path, err); !strings.HasPrefix(got, "Could not save "+path+": ") || !strings.Contains(got, c.want) {
			t.Errorf("%v: %q, want it to say %q", c.errno, got, c.want)
		}
	}
	// A folder that exists but takes no files (/proc, say) is not called missing.
	dir := t.TempDir()
	in := filepath.Join(dir, "x.md")
	if got := DescribeSaveError(in, &os.PathError{Op: "open", Path: in, Err: syscall.ENOENT}); !strings.Contains(got, "the folder "+dir+" does not take new files") {
		t.Errorf("an existing folder: %q", got)
	}
}
