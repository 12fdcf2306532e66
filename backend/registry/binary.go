package registry

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
)

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
