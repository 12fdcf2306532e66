package registry

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// commandSum is the sha256 of the file the command cmd (relative to dir) runs, following
// symlinks (npm's .bin entries are), which must stay inside dir.
func commandSum(dir, cmd string) (string, error) {
	real, err := filepath.EvalSymlinks(filepath.Join(dir, filepath.FromSlash(cmd)))
	if err != nil {
		return "", fmt.Errorf("the command %s is missing: %w", cmd, err)
	}
	base, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", err
	}
	if rel, err := filepath.Rel(base, real); err != nil || !filepath.IsLocal(rel) {
		return "", fmt.Errorf("the command %s leads outside its install folder", cmd)
	}
	f, err := os.Open(real)
	if err != nil {
		return "", err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return "", err
	}
	if !st.Mode().IsRegular() {
		return "", fmt.Errorf("the command %s is not a file", cmd)
	}
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// TamperedError is Verify's refusal: the installed command is not the one installed.
type TamperedError struct {
	Name, Version, Path string
	Want, Got           string // sha256s; Got is "" when the file is gone
}

func (e *TamperedError) Error() string {
	what := "its sha256 is now " + e.Got + ", it was " + e.Want + " when installed"
	if e.Got == "" {
		what = "it is missing"
	}
	return fmt.Sprintf("refused to start %s %s: its command %s changed since it was installed (%s); install it again (the Registry view or the agent's settings in the window; agentdesk registry install or agentdesk agents install)",
		e.Name, e.Version, e.Path, what)
}

// verify checks the install's command against the sha256 recorded when it was installed.
func verify(in Install) error {
	if in.CommandSHA256 == "" {
		return &TamperedError{Name: in.Name, Version: in.Version, Path: in.Command(), Want: "(none recorded)", Got: "?"}
	}
	got, err := commandSum(in.Dir, in.Cmd)
	if err != nil {
		return &TamperedError{Name: in.Name, Version: in.Version, Path: in.Command(), Want: in.CommandSHA256}
	}
	if !strings.EqualFold(got, in.CommandSHA256) {
		return &TamperedError{Name: in.Name, Version: in.Version, Path: in.Command(), Want: in.CommandSHA256, Got: got}
	}
	return nil
}
