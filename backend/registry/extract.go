package registry

import (
	"archive/tar"
	"archive/zip"
	"compress/bzip2"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// The Installer's extraction bounds when it sets none.
const (
	defaultMaxExtract = 4 << 30
	defaultMaxEntry   = 1 << 30
	defaultMaxEntries = 200_000
)

// extract unpacks file (named name, which tells its format) into dir through an os.Root, so
// no entry, however named, can be written through to outside dir, and refuses an archive with
// a symlink that leads outside dir through the tree as extracted (links.go). What it writes is
// bounded before it is written: an entry whose header says it is larger than MaxEntry or than
// what is left of MaxExtract is refused first, and its data is cut where its header said it
// ends. A raw executable is saved as cmd.
func (i *Installer) extract(file, name, dir, cmd string) error {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	x := &extractor{root: root, budget: orDefault(i.MaxExtract, defaultMaxExtract),
		maxEntry: orDefault(i.MaxEntry, defaultMaxEntry), maxEntries: orDefault(i.MaxEntries, defaultMaxEntries)}
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	lower := strings.ToLower(name)
	switch {
	case strings.HasSuffix(lower, ".zip"):
		err = x.zip(f, st.Size())
	case strings.HasSuffix(lower, ".tar.gz"), strings.HasSuffix(lower, ".tgz"):
		var gz *gzip.Reader
		if gz, err = gzip.NewReader(f); err == nil {
			err = x.tar(gz)
		}
	case strings.HasSuffix(lower, ".tar.bz2"), strings.HasSuffix(lower, ".tbz2"):
		err = x.tar(bzip2.NewReader(f))
	case strings.HasSuffix(lower, ".tar"):
		err = x.tar(f)
	default:
		err = x.file(cmd, cmd, 0o755, f, st.Size()) // a raw executable
	}
	if err != nil {
		return err
	}
	return x.checkLinks()
}

func orDefault[N int | int64](n, def N) N {
	if n <= 0 {
		return def
	}
	return n
}

// extractor writes one archive's entries under root.
type extractor struct {
	root     *os.Root
	budget   int64 // the bytes still allowed
	maxEntry int64
	// maxEntries bounds entries, the count of those seen so far.
	maxEntries, entries int
	links               bool // a symlink was made: links.go checks them all at the end
}

// name is an archive entry's name as a path inside the root, or "" for the root itself.
func (x *extractor) name(raw string) (string, error) {
	x.entries++
	if x.entries > x.maxEntries {
		return "", fmt.Errorf("refused the archive: it holds more than %d entries", x.maxEntries)
	}
	p := path.Clean(strings.TrimPrefix(strings.ReplaceAll(raw, `\`, "/"), "./"))
	if p == "." || p == "/" {
		return "", nil
	}
	if !filepath.IsLocal(filepath.FromSlash(p)) {
		return "", fmt.Errorf("refused the entry %q: it points outside the install folder", raw)
	}
	return filepath.FromSlash(p), nil
}

// fits refuses an entry (named raw in the archive) whose header says it holds size bytes,
// when that is more than one file or what is left of the budget may take.
func (x *extractor) fits(raw string, size uint64) error {
	if size > uint64(x.maxEntry) {
		return fmt.Errorf("refused the entry %q: it is larger than the %s allowed for one file", raw, byteWords(x.maxEntry))
	}
	if int64(size) > x.budget {
		return x.overBudget()
	}
	return nil
}

func (x *extractor) overBudget() error {
	return fmt.Errorf("refused the archive: it extracts to more than the size allowed (%s)", byteWords(x.budget))
}

// file writes the entry raw, whose header says it holds size bytes, as name: refused before a
// byte is written when it does not fit, and cut (and refused) where its header said it ends.
func (x *extractor) file(name, raw string, mode fs.FileMode, r io.Reader, size int64) error {
	if err := x.fits(raw, uint64(size)); err != nil {
		return err
	}
	if err := x.mkdirParent(name, raw); err != nil {
		return err
	}
	f, err := x.root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode.Perm()&0o755|0o600)
	if err != nil {
		return err
	}
	n, err := io.Copy(f, io.LimitReader(r, size+1))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	x.budget -= n
	if err == nil && n > size {
		err = fmt.Errorf("refused the entry %q: it holds more data than its header declares (%d bytes)", raw, size)
	}
	return err
}

func (x *extractor) tar(r io.Reader) error {
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		name, err := x.name(h.Name)
		if err != nil {
			return err
		}
		if name == "" {
			continue
		}
		switch h.Typeflag {
		case tar.TypeDir:
			err = x.mkdir(name, h.Name)
		case tar.TypeReg:
			err = x.file(name, h.Name, h.FileInfo().Mode(), tr, h.Size)
		case tar.TypeSymlink:
			err = x.symlink(name, h.Name, h.Linkname)
		case tar.TypeXGlobalHeader:
		default: // hard links, devices, fifos, sparse files: an agent needs none, and each is a way out
			err = fmt.Errorf("refused the entry %q: agentdesk extracts only files, folders and symlinks", h.Name)
		}
		if err != nil {
			return err
		}
	}
}

func (x *extractor) zip(r io.ReaderAt, size int64) error {
	zr, err := zip.NewReader(r, size)
	if err != nil {
		return err
	}
	if len(zr.File) > x.maxEntries {
		return fmt.Errorf("refused the archive: it holds more than %d entries", x.maxEntries)
	}
	// zip's reader refuses data past the size an entry declares, so the declared sizes bound
	// what the archive can write: judged whole before the first byte is.
	var total uint64
	for _, zf := range zr.File {
		if zf.Mode().IsRegular() {
			if err := x.fits(zf.Name, zf.UncompressedSize64); err != nil {
				return err
			}
			total += zf.UncompressedSize64 // each at most maxEntry: no overflow
		}
	}
	if total > uint64(x.budget) {
		return x.overBudget()
	}
	for _, zf := range zr.File {
		name, err := x.name(zf.Name)
		if err != nil {
			return err
		}
		if name == "" {
			continue
		}
		mode := zf.Mode()
		switch {
		case mode.IsDir():
			err = x.mkdir(name, zf.Name)
		case mode&fs.ModeSymlink != 0:
			err = x.zipSymlink(zf, name)
		case mode.IsRegular():
			err = x.zipFile(zf, name, mode)
		default:
			err = fmt.Errorf("refused the entry %q: agentdesk extracts only files, folders and symlinks", zf.Name)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (x *extractor) zipFile(zf *zip.File, name string, mode fs.FileMode) error {
	rc, err := zf.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	err = x.file(name, zf.Name, mode, rc, int64(zf.UncompressedSize64))
	if errors.Is(err, zip.ErrFormat) { // the reader found more data than the header declares
		return fmt.Errorf("refused the entry %q: it holds more data than its header declares (%d bytes)", zf.Name, zf.UncompressedSize64)
	}
	return err
}

func (x *extractor) zipSymlink(zf *zip.File, name string) error {
	rc, err := zf.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	target, err := io.ReadAll(io.LimitReader(rc, 4096))
	if err != nil {
		return err
	}
	return x.symlink(name, zf.Name, string(target))
}

// byteWords words a size limit for a person.
func byteWords(n int64) string {
	if n >= 1<<20 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}
