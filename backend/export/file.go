package export

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"unicode"
	"unicode/utf8"
)

// Saving an export to a file the user chose: the default file name, the atomic write, and the
// one user message for a write that failed. No dialog here: the window asks for the path.

// Limits of a default file name (without its extension): short enough to read in a dialog and
// far below the 255 bytes file systems allow.
const (
	maxNameRunes = 80
	maxNameBytes = 200
)

// FileName is the default file name of a session exported as format ("md" or "json"):
// its title on one line, path separators made dashes, the characters other systems refuse in
// names (<>:"|?*) and control characters made spaces, invisible format characters dropped, at
// most 80 characters (and 200 bytes), never hidden (no leading dot), then the extension. An
// empty title gives "agentdesk session".
func FileName(title, format string) string {
	var b strings.Builder
	for _, r := range title {
		switch {
		case r == '/' || r == '\\':
			b.WriteRune('-')
		case strings.ContainsRune(`<>:"|?*`, r) || unicode.IsControl(r) || unicode.IsSpace(r):
			b.WriteRune(' ')
		case unicode.Is(unicode.Cf, r) || r == utf8.RuneError:
			// invisible (e.g. a right-to-left override that disguises the extension): dropped
		default:
			b.WriteRune(r)
		}
	}
	trim := func(s string) string { return strings.Trim(s, " .-") }
	name := trim(strings.Join(strings.Fields(b.String()), " "))
	if utf8.RuneCountInString(name) > maxNameRunes || len(name) > maxNameBytes {
		end, runes := 0, 0
		for i, r := range name {
			if runes == maxNameRunes || i+utf8.RuneLen(r) > maxNameBytes {
				break
			}
			end, runes = i+utf8.RuneLen(r), runes+1
		}
		name = trim(name[:end])
	}
	if name == "" {
		name = "agentdesk session"
	}
	return name + "." + format
}

// WithExtension adds "."+ext to a chosen path that has no extension at all ("notes" becomes
// "notes.md"), unless a file of that name exists: the dialog asked about overwriting the path
// as chosen, not about another file.
func WithExtension(path, ext string) string {
	if filepath.Ext(path) != "" {
		return path
	}
	if _, err := os.Lstat(path + "." + ext); err == nil {
		return path
	}
	return path + "." + ext
}

// DescribeSaveError is the one user message for an export that could not be written to path:
// what went wrong, in words, and what to do.
func DescribeSaveError(path string, err error) string {
	dir := filepath.Dir(path)
	what := fmt.Sprintf("Could not save %s: ", path)
	switch {
	case errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT):
		return what + "the disk is full. Free some space, or choose a folder on another disk, and save again."
	case errors.Is(err, syscall.EROFS):
		return what + "the disk is read-only. Choose a folder on another disk and save again."
	case errors.Is(err, syscall.EISDIR):
		return what + "a folder has that name. Choose another file name and save again."
	case errors.Is(err, syscall.ENAMETOOLONG):
		return what + "the file name is too long. Choose a shorter name and save again."
	case errors.Is(err, fs.ErrPermission):
		return what + fmt.Sprintf("you may not write to the folder %s. Choose a folder of yours, such as your home folder, and save again.", dir)
	case errors.Is(err, syscall.ENOTDIR) || errors.Is(err, fs.ErrNotExist):
		if st, statErr := os.Stat(dir); statErr == nil && st.IsDir() {
			return what + fmt.Sprintf("the folder %s does not take new files. Choose another folder and save again.", dir)
		}
		return what + fmt.Sprintf("the folder %s does not exist. Choose an existing folder and save again.", dir)
	}
	return what + fmt.Sprintf("%v. Choose another folder and save again.", err)
}
