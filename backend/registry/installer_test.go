package registry

import (
	"archive/tar"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// run starts an installed command as the catalog would and returns what it printed.
func run(t *testing.T, in Install) string {
	t.Helper()
	out, err := exec.Command(in.Command(), in.Args...).CombinedOutput()
	if err != nil {
		t.Fatalf("run %s: %v\n%s", in.Command(), err, out)
	}
	return strings.TrimSpace(string(out))
}

func TestInstallBinaryUpdateRollbackUninstall(t *testing.T) {
	reg := newFixtureRegistry(t)
	inst := newInstaller(t)
	ctx := context.Background()
	v1 := reg.binaryEntry(t, "1.0.0", false)

	in, err := inst.Install(ctx, v1)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(inst.Root, "fixture", "1.0.0", "pkg", "bin", "agent"); in.Command() != want {
		t.Fatalf("command %s, want %s", in.Command(), want)
	}
	if got := run(t, in); got != "fixture-agent 1.0.0" {
		t.Fatalf("installed agent printed %q", got)
	}
	if in.ArchiveSHA256 != v1.Distribution.Binary["linux-x86_64"].SHA256 || in.CommandSHA256 != sum([]byte(agentScript("1.0.0"))) {
		t.Fatalf("manifest sums: archive %s command %s", in.ArchiveSHA256, in.CommandSHA256)
	}

	// The catalog lists it with its version and starts it only while it verifies.
	src := CatalogSource{Installer: inst}
	list := src.Agents([]string{"PATH=/usr/bin:/bin"})
	if len(list) != 1 || list[0].ID != "registry:fixture" || list[0].Version != "1.0.0" || list[0].Command != in.Command() ||
		!list[0].Available || !contains(list[0].Env, "FIXTURE=1") {
		t.Fatalf("catalog agents: %+v", list)
	}
	if err := src.Check("registry:fixture"); err != nil {
		t.Fatalf("check of a fresh install: %v", err)
	}

	v2 := reg.binaryEntry(t, "2.0.0", false)
	in2, err := inst.Install(ctx, v2)
	if err != nil {
		t.Fatal(err)
	}
	if got := run(t, in2); got != "fixture-agent 2.0.0" {
		t.Fatalf("updated agent printed %q", got)
	}
	st, _ := inst.Installed()
	if len(st) != 1 || st[0].Current.Version != "2.0.0" || st[0].Previous != "1.0.0" {
		t.Fatalf("after update: %+v", st)
	}

	back, err := inst.Rollback("fixture")
	if err != nil {
		t.Fatal(err)
	}
	cur, err := inst.Current("fixture")
	if err != nil || back.Version != "1.0.0" || cur.Version != "1.0.0" || run(t, cur) != "fixture-agent 1.0.0" {
		t.Fatalf("after rollback: %+v %+v %v", back, cur, err)
	}
	// A third version drops the oldest kept: only current and previous stay on disk.
	if _, err := inst.Install(ctx, reg.binaryEntry(t, "3.0.0", false)); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(inst.Root, "fixture", "2.0.0")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("2.0.0 should be gone after installing 3.0.0 over 1.0.0: %v", err)
	}
	if st, _ := inst.Installed(); st[0].Current.Version != "3.0.0" || st[0].Previous != "1.0.0" {
		t.Fatalf("after the third install: %+v", st)
	}

	if err := inst.Uninstall("fixture"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(inst.Root, "fixture")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("uninstall left %v", err)
	}
	if l := src.Agents(nil); len(l) != 0 {
		t.Fatalf("catalog after uninstall: %+v", l)
	}
	if _, err := inst.Rollback("fixture"); err == nil {
		t.Fatal("rollback of an uninstalled agent succeeded")
	}
}

func TestTamperedCommandRefusedAndRepaired(t *testing.T) {
	reg := newFixtureRegistry(t)
	inst := newInstaller(t)
	e := reg.binaryEntry(t, "1.0.0", true) // the registry gives no sha256: the first install records one
	in, err := inst.Install(context.Background(), e)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(in.Command(), []byte("#!/bin/sh\necho evil\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	err = CatalogSource{Installer: inst}.Check("registry:fixture")
	var tampered *TamperedError
	if !errors.As(err, &tampered) || !strings.Contains(err.Error(), "refused to start Fixture Agent 1.0.0") || tampered.Got != sum([]byte("#!/bin/sh\necho evil\n")) {
		t.Fatalf("a changed command was not refused: %v", err)
	}
	if err := os.Remove(in.Command()); err != nil {
		t.Fatal(err)
	}
	if _, err := inst.Current("fixture"); !errors.As(err, &tampered) || !strings.Contains(err.Error(), "missing") {
		t.Fatalf("a missing command was not refused: %v", err)
	}
	// Installing the same version again repairs it.
	if _, err := inst.Install(context.Background(), e); err != nil {
		t.Fatal(err)
	}
	if cur, err := inst.Current("fixture"); err != nil || run(t, cur) != "fixture-agent 1.0.0" {
		t.Fatalf("repair: %v", err)
	}
}

func TestChecksumMismatchRefusedPreviousKept(t *testing.T) {
	reg := newFixtureRegistry(t)
	inst := newInstaller(t)
	ctx := context.Background()
	if _, err := inst.Install(ctx, reg.binaryEntry(t, "1.0.0", false)); err != nil {
		t.Fatal(err)
	}
	bad := reg.binaryEntry(t, "2.0.0", false)
	tg := bad.Distribution.Binary["linux-x86_64"]
	tg.SHA256 = strings.Repeat("ab", 32)
	bad.Distribution.Binary["linux-x86_64"] = tg
	_, err := inst.Install(ctx, bad)
	if err == nil || !strings.Contains(err.Error(), "checksum mismatch") || !strings.Contains(err.Error(), tg.SHA256) {
		t.Fatalf("a download not matching the registry's sha256 was not refused: %v", err)
	}
	cur, err := inst.Current("fixture")
	if err != nil || cur.Version != "1.0.0" || run(t, cur) != "fixture-agent 1.0.0" {
		t.Fatalf("the previous install does not work after a refused update: %+v %v", cur, err)
	}
	if _, err := os.Stat(filepath.Join(inst.Root, "fixture", "2.0.0")); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("the refused version was put in place")
	}
	leftovers, _ := filepath.Glob(filepath.Join(inst.Root, "fixture", ".*"))
	if len(leftovers) != 0 {
		t.Fatalf("temporary files left: %v", leftovers)
	}
}

func TestExtractRefusesEscapes(t *testing.T) {
	outside := t.TempDir()
	cases := map[string][]tarEntry{
		"dot-dot":        {{name: "../escape", body: "x"}},
		"absolute":       {{name: "/" + filepath.Join(outside, "abs"), body: "x"}},
		"symlink out":    {{name: "link", typ: tar.TypeSymlink, link: "../../../" + outside}},
		"absolute link":  {{name: "link", typ: tar.TypeSymlink, link: outside}},
		"write via link": {{name: "d", typ: tar.TypeSymlink, link: "."}, {name: "e", typ: tar.TypeSymlink, link: "d/../.."}},
		"hard link":      {{name: "h", typ: tar.TypeLink, link: "/etc/passwd"}},
	}
	for name, entries := range cases {
		t.Run(name, func(t *testing.T) {
			inst, err := installEvil(t, entries)
			if err == nil || !strings.Contains(err.Error(), "refused the") {
				t.Fatalf("installed an archive with %s: %v", name, err)
			}
			if ents, _ := os.ReadDir(outside); len(ents) != 0 {
				t.Fatalf("something was written outside: %v", ents)
			}
			if st, _ := inst.Installed(); len(st) != 0 {
				t.Fatalf("recorded as installed: %+v", st)
			}
		})
	}
}

// installEvil installs, as the agent "evil", a tar.gz of entries and an agent script.
func installEvil(t *testing.T, entries []tarEntry) (*Installer, error) {
	t.Helper()
	reg := newFixtureRegistry(t)
	archive := tarGz(t, append(entries, tarEntry{name: "agent", body: agentScript("1")}))
	e := Entry{ID: "evil", Name: "Evil", Version: "1.0.0", Distribution: Distribution{Binary: map[string]Target{
		"linux-x86_64": {Archive: reg.put(t, "evil.tar.gz", archive), Cmd: "./agent"}}}}
	inst := newInstaller(t)
	_, err := inst.Install(context.Background(), e)
	return inst, err
}

func TestExtractSizeCap(t *testing.T) {
	reg := newFixtureRegistry(t)
	archive := tarGz(t, []tarEntry{{name: "agent", body: agentScript("1")}, {name: "big", body: strings.Repeat("x", 4096)}})
	e := Entry{ID: "big", Name: "Big", Version: "1.0.0", Distribution: Distribution{Binary: map[string]Target{
		"linux-x86_64": {Archive: reg.put(t, "big.tgz", archive), Cmd: "agent"}}}}
	inst := newInstaller(t)
	inst.MaxExtract = 1024
	if _, err := inst.Install(context.Background(), e); err == nil || !strings.Contains(err.Error(), "more than the size") {
		t.Fatalf("an archive over the extract cap was installed: %v", err)
	}
	inst.MaxDownload = 16
	if _, err := inst.Install(context.Background(), e); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Fatalf("an archive over the download cap was installed: %v", err)
	}
}

func TestRawBinaryAndConcurrentInstalls(t *testing.T) {
	reg := newFixtureRegistry(t)
	e := Entry{ID: "raw", Name: "Raw", Version: "0.1.0", Distribution: Distribution{Binary: map[string]Target{
		"linux-x86_64": {Archive: reg.put(t, "raw-agent", []byte(agentScript("raw"))), Cmd: "raw-agent"}}}}
	inst := newInstaller(t)
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for n := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[n] = inst.Install(context.Background(), e)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	cur, err := inst.Current("raw")
	if err != nil || run(t, cur) != "fixture-agent raw" {
		t.Fatalf("raw binary: %v", err)
	}
	if ents, _ := os.ReadDir(filepath.Join(inst.Root, "raw")); len(ents) != 2 { // 0.1.0/ and state.json
		t.Fatalf("concurrent installs left %d entries", len(ents))
	}
}

func TestNoBuildForPlatform(t *testing.T) {
	e := Entry{ID: "macos", Name: "Mac only", Version: "1.0.0", Distribution: Distribution{Binary: map[string]Target{
		"darwin-aarch64": {Archive: "http://127.0.0.1:1/x.tar.gz", Cmd: "x"}}}}
	if _, err := newInstaller(t).Install(context.Background(), e); err == nil || !strings.Contains(err.Error(), "no build for linux-x86_64") {
		t.Fatalf("got %v", err)
	}
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// TestAnInstallerWithoutADataFolderRefusesAndWritesNothing: with no data folder (Open("")), an
// install, rollback and uninstall are refused saying so, and nothing lands in the working folder
// the window or a command runs in (the installer's root used to be the relative "agents").
func TestAnInstallerWithoutADataFolderRefusesAndWritesNothing(t *testing.T) {
	reg := newFixtureRegistry(t)
	cwd := t.TempDir()
	t.Chdir(cwd)
	_, inst := Open("", nil)
	if _, err := inst.Install(context.Background(), reg.binaryEntry(t, "1.0.0", false)); !errors.Is(err, ErrNoInstallFolder) {
		t.Fatalf("install without a data folder: %v, want ErrNoInstallFolder", err)
	}
	if _, err := inst.Rollback("fixture"); !errors.Is(err, ErrNoInstallFolder) {
		t.Errorf("rollback: %v", err)
	}
	if err := inst.Uninstall("fixture"); !errors.Is(err, ErrNoInstallFolder) {
		t.Errorf("uninstall: %v", err)
	}
	if l, err := inst.Installed(); err != nil || len(l) != 0 {
		t.Errorf("installed: %v %v, want none", l, err)
	}
	if ents, _ := os.ReadDir(cwd); len(ents) != 0 {
		t.Fatalf("the working folder got %d entries, first %q", len(ents), ents[0].Name())
	}
}
