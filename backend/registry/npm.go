package registry

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"agentdesk/backend/agents"
)

// splitSpec splits an npm spec "@scope/name@1.2.3" into its name and version ("" if none).
func splitSpec(spec string) (name, version string) {
	at := strings.LastIndex(spec, "@")
	if at <= 0 { // no version, or only a scope's leading @
		return spec, ""
	}
	return spec[:at], spec[at+1:]
}

var pkgNameRe = regexp.MustCompile(`^(@[a-z0-9][a-z0-9._~-]*/)?[a-z0-9][a-z0-9._~-]*$`)

// installNpm installs the entry's npm package at its exact version into dir with npm
// (`npm install --prefix dir name@X.Y.Z`), and finds the bin to start.
//
// Install scripts are allowed: npx, the registry's reference way to run these entries, runs
// them too, and agents depend on packages that need them (native modules, platform binaries
// fetched at install). The pin (exact version, and npm's package-lock.json in dir with each
// tarball's integrity hash) is what keeps the code the same from one install to the next.
func (i *Installer) installNpm(ctx context.Context, e Entry, p Package, dir string) (Install, error) {
	name, version := splitSpec(p.Package)
	if version == "" {
		version = e.Version // the registry requires a version in the spec; an older entry may lack it
	}
	if !pkgNameRe.MatchString(name) {
		return Install{}, fmt.Errorf("%s: %q is not an npm package name", e.Name, name)
	}
	if !agents.ExactVersion(version) { // ranges and tags would install different code on different days
		return Install{}, fmt.Errorf("refused to install %s: %q is not an exact version (agentdesk installs only pinned versions, never a tag or range)", e.Name, p.Package)
	}
	spec := name + "@" + version
	// A package.json of our own keeps npm from climbing to a parent folder's project.
	if err := os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"name":"agentdesk-registry-install","private":true}`+"\n"), 0o644); err != nil {
		return Install{}, err
	}
	i.progress(e.ID, "Installing "+spec+" with npm")
	args := append([]string{"install", "--prefix", dir, "--save-exact", "--omit=dev", "--no-audit", "--no-fund", "--no-update-notifier"}, i.NPMFlags...)
	args = append(args, spec)
	run := i.NPM
	if run == nil {
		run = i.execNpm
	}
	if out, err := run(ctx, dir, args); err != nil {
		return Install{}, fmt.Errorf("npm could not install %s: %v\n%s", spec, err, tail(out, 2000))
	}
	if p.Integrity != "" {
		if err := lockedIntegrity(dir, name, p.Integrity); err != nil {
			return Install{}, fmt.Errorf("refused to install %s: %w", spec, err)
		}
	}
	bin, err := npmBin(dir, name, p.Cmd)
	if err != nil {
		return Install{}, fmt.Errorf("%s: %w", spec, err)
	}
	return Install{Kind: "npx", Cmd: "node_modules/.bin/" + bin, Args: p.Args, Env: p.Env, Package: spec}, nil
}

// execNpm runs npm from Env's PATH (the login shell's, in the window).
func (i *Installer) execNpm(ctx context.Context, dir string, args []string) ([]byte, error) {
	env := i.Env
	if env == nil {
		env = os.Environ()
	}
	npm, err := lookPath("npm", env)
	if err != nil {
		return nil, fmt.Errorf("npm is needed to install this agent (install Node.js): %w", err)
	}
	cmd := exec.CommandContext(ctx, npm, args...)
	cmd.Dir, cmd.Env = dir, env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err = cmd.Run()
	return out.Bytes(), err
}

// lookPath finds file on env's PATH.
func lookPath(file string, env []string) (string, error) {
	pathVar := ""
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok && k == "PATH" {
			pathVar = v
		}
	}
	for _, d := range filepath.SplitList(pathVar) {
		if !filepath.IsAbs(d) {
			continue
		}
		p := filepath.Join(d, file)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && st.Mode().Perm()&0o111 != 0 {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s is not on PATH", file)
}

// npmBin is the bin of the installed package name to start: cmd when the entry names one,
// else the package's only bin, else the one named like the package.
func npmBin(dir, name, cmd string) (string, error) {
	raw, err := os.ReadFile(filepath.Join(dir, "node_modules", filepath.FromSlash(name), "package.json"))
	if err != nil {
		return "", fmt.Errorf("npm did not install the package: %w", err)
	}
	var pj struct {
		Name string          `json:"name"`
		Bin  json.RawMessage `json:"bin"`
	}
	if err := json.Unmarshal(raw, &pj); err != nil {
		return "", fmt.Errorf("the package's package.json: %w", err)
	}
	bins := map[string]string{}
	var one string
	if json.Unmarshal(pj.Bin, &one) == nil && one != "" {
		bins[path.Base(name)] = one // a string bin is named after the package, without its scope
	} else {
		_ = json.Unmarshal(pj.Bin, &bins)
	}
	pick := cmd
	if pick == "" {
		if len(bins) == 1 {
			for b := range bins {
				pick = b
			}
		} else {
			pick = path.Base(name)
		}
	}
	if _, ok := bins[pick]; !ok || strings.ContainsAny(pick, `/\`) {
		return "", fmt.Errorf("the package has no command %q to start", pick)
	}
	return pick, nil
}

// lockedIntegrity checks that npm installed the package name from the tarball whose integrity
// is want: package-lock.json records the integrity of each tarball npm fetched and checked.
func lockedIntegrity(dir, name, want string) error {
	raw, err := os.ReadFile(filepath.Join(dir, "package-lock.json"))
	if err != nil {
		return fmt.Errorf("npm wrote no package-lock.json to check its integrity against: %w", err)
	}
	var lock struct {
		Packages map[string]struct {
			Integrity string `json:"integrity"`
		} `json:"packages"`
	}
	if err := json.Unmarshal(raw, &lock); err != nil {
		return fmt.Errorf("npm's package-lock.json: %w", err)
	}
	got := lock.Packages["node_modules/"+name].Integrity
	if got != want {
		return fmt.Errorf("its tarball's integrity is %q, agentdesk pins %q: the registry serves other code under this version", got, want)
	}
	return nil
}

// tail is the end of npm's output, enough to say what went wrong.
func tail(out []byte, n int) string {
	s := strings.TrimSpace(string(out))
	if len(s) > n {
		s = "…" + s[len(s)-n:]
	}
	return s
}
