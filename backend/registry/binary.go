package registry

import (
	"archive/tar"
	"archive/zip"
	"compress/bzip2"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// maxEntries bounds how many files an archive may hold (a zip bomb of empty files).
const maxEntries = 200_000

// installBinary downloads t's archive, checks it against the registry's sha256 when there is
// one, and extracts it into dir.
func (i *Installer) installBinary(ctx context.Context, e Entry, t Target, dir string) (Install, error) {
	cmd, err := localPath(t.Cmd)
	if err != nil {
		return Install{}, fmt.Errorf("%s: the registry's command %q: %w", e.Name, t.Cmd, err)
	}
	i.progress(e.ID, "Downloading "+path.Base(archiveName(t.Archive)))
	file, sum, err := i.download(ctx, t.Archive, filepath.Dir(dir))
	if err != nil {
		return Install{}, fmt.Errorf("download %s: %w", e.Name, err)
	}
	defer os.Remove(file)
	if t.SHA256 != "" && !strings.EqualFold(t.SHA256, sum) {
		return Install{}, fmt.Errorf("refused to install %s %s: checksum mismatch (the registry says sha256 %s, the download is %s)",
			e.Name, e.Version, strings.ToLower(t.SHA256), sum)
	}
	i.progress(e.ID, "Extracting")
	if err := i.extract(file, archiveName(t.Archive), dir, cmd); err != nil {
		return Install{}, fmt.Errorf("extract %s: %w", e.Name, err)
	}
	st, err := os.Lstat(filepath.Join(dir, cmd))
	if err != nil {
		return Install{}, fmt.Errorf("%s: the archive has no %s", e.Name, t.Cmd)
	}
	if st.Mode().IsRegular() && st.Mode().Perm()&0o100 == 0 {
		_ = os.Chmod(filepath.Join(dir, cmd), st.Mode().Perm()|0o755) // zips and raw downloads lose the bit
	}
	return Install{Kind: "binary", Cmd: filepath.ToSlash(cmd), Args: t.Args, Env: t.Env, Archive: t.Archive, ArchiveSHA256: sum}, nil
}

// localPath is cmd as a path inside the install folder ("./goose" is "goose"), or an error
// for one that would leave it. The registry writes Windows commands with backslashes.
func localPath(cmd string) (string, error) {
	p := path.Clean(strings.ReplaceAll(cmd, `\`, "/"))
	if !filepath.IsLocal(filepath.FromSlash(p)) || p == "." {
		return "", errors.New("it is not a path inside the archive")
	}
	return filepath.FromSlash(p), nil
}

// archiveName is the last element of the archive's address, without its query.
func archiveName(raw string) string {
	if u, err := url.Parse(raw); err == nil {
		return path.Base(u.Path)
	}
	return path.Base(raw)
}

// download writes the archive to a temp file in tmpDir, returning it and its sha256.
func (i *Installer) download(ctx context.Context, addr, tmpDir string) (string, string, error) {
	limit := i.MaxDownload
	if limit <= 0 {
		limit = 1 << 30
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, addr, nil)
	if err != nil {
		return "", "", err
	}
	client := i.Client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		return "", "", err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", "", fmt.Errorf("%s answered %s", addr, resp.Status)
	}
	f, err := os.CreateTemp(tmpDir, ".download-")
	if err != nil {
		return "", "", err
	}
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(f, h), io.LimitReader(resp.Body, limit+1))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil && n > limit {
		err = fmt.Errorf("the archive is larger than %d MiB", limit>>20)
	}
	if err != nil {
		os.Remove(f.Name())
		return "", "", err
	}
	return f.Name(), hex.EncodeToString(h.Sum(nil)), nil
}

// extract unpacks file (named name, which tells its format) into dir through an os.Root, so
// no entry, however named, and no symlink it made can be written through to outside dir; a
// symlink whose target would leave dir is refused too, since the agent would follow it. A raw
// executable is saved as cmd.
func (i *Installer) extract(file, name, dir, cmd string) error {
	budget := i.MaxExtract
	if budget <= 0 {
		budget = 4 << 30
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	x := &extractor{root: root, budget: budget}
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	defer f.Close()
	lower := strings.ToLower(name)
	switch {
	case strings.HasSuffix(lower, ".zip"):
		st, err := f.Stat()
		if err != nil {
			return err
		}
		return x.zip(f, st.Size())
	case strings.HasSuffix(lower, ".tar.gz"), strings.HasSuffix(lower, ".tgz"):
		gz, err := gzip.NewReader(f)
		if err != nil {
			return err
		}
		return x.tar(gz)
	case strings.HasSuffix(lower, ".tar.bz2"), strings.HasSuffix(lower, ".tbz2"):
		return x.tar(bzip2.NewReader(f))
	case strings.HasSuffix(lower, ".tar"):
		return x.tar(f)
	}
	return x.file(cmd, 0o755, f) // a raw executable
}

type extractor struct {
	root    *os.Root
	budget  int64
	entries int
}

// name is an archive entry's name as a path inside the root, or "" for the root itself.
func (x *extractor) name(raw string) (string, error) {
	x.entries++
	if x.entries > maxEntries {
		return "", fmt.Errorf("the archive holds more than %d entries", maxEntries)
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

func (x *extractor) file(name string, mode fs.FileMode, r io.Reader) error {
	if err := x.root.MkdirAll(filepath.Dir(name), 0o755); err != nil && filepath.Dir(name) != "." {
		return err
	}
	f, err := x.root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode.Perm()&0o755|0o600)
	if err != nil {
		return err
	}
	n, err := io.Copy(f, io.LimitReader(r, x.budget+1))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if x.budget -= n; x.budget < 0 {
		return errors.New("the archive extracts to more than the size allowed")
	}
	return nil
}

func (x *extractor) symlink(name, target string) error {
	t := strings.ReplaceAll(target, `\`, "/")
	if path.IsAbs(t) || !filepath.IsLocal(filepath.FromSlash(path.Join(path.Dir(filepath.ToSlash(name)), t))) {
		return fmt.Errorf("refused the symlink %s -> %s: it points outside the install folder", filepath.ToSlash(name), target)
	}
	if err := x.root.MkdirAll(filepath.Dir(name), 0o755); err != nil && filepath.Dir(name) != "." {
		return err
	}
	return x.root.Symlink(filepath.FromSlash(t), name)
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
			err = x.root.MkdirAll(name, 0o755)
		case tar.TypeReg:
			err = x.file(name, h.FileInfo().Mode(), tr)
		case tar.TypeSymlink:
			err = x.symlink(name, h.Linkname)
		case tar.TypeXGlobalHeader:
		default: // hard links, devices, fifos: an agent needs none, and each is a way out
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
			err = x.root.MkdirAll(name, 0o755)
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
	return x.file(name, mode, rc)
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
	return x.symlink(name, string(target))
}
