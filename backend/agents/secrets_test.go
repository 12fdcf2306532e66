package agents

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// CI has no keyring: the file fallback is what runs there, so it is tested on its own.
func TestFileSecretsArePrivateAndSurviveAReopen(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "agentdesk")
	f := &FileSecrets{Path: filepath.Join(dir, "secrets.json")}
	if _, err := f.Get("acme", "KEY"); !errors.Is(err, ErrNoSecret) {
		t.Fatalf("Get before Set: %v, want ErrNoSecret", err)
	}
	if err := f.Set("acme", "KEY", "sk-1234"); err != nil {
		t.Fatal(err)
	}
	if err := f.Set("gemini", "GEMINI_API_KEY", "g-5678"); err != nil {
		t.Fatal(err)
	}
	again := &FileSecrets{Path: f.Path}
	if v, err := again.Get("acme", "KEY"); err != nil || v != "sk-1234" {
		t.Fatalf("after reopen: %q, %v", v, err)
	}
	st, _ := os.Stat(f.Path)
	if st.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v, want 0600", st.Mode().Perm())
	}
	if err := again.Delete("acme", "KEY"); err != nil {
		t.Fatal(err)
	}
	if err := again.Delete("acme", "KEY"); err != nil {
		t.Fatalf("second Delete: %v", err)
	}
	if _, err := f.Get("acme", "KEY"); !errors.Is(err, ErrNoSecret) {
		t.Fatalf("after Delete: %v", err)
	}
	if v, _ := f.Get("gemini", "GEMINI_API_KEY"); v != "g-5678" {
		t.Fatalf("another agent's secret went with it: %q", v)
	}
	if !strings.Contains(f.Where(), f.Path) {
		t.Fatalf("Where: %q", f.Where())
	}
}

func TestAnUnreadableSecretsFileIsKeptAside(t *testing.T) {
	f := &FileSecrets{Path: filepath.Join(t.TempDir(), "secrets.json")}
	if err := os.WriteFile(f.Path, []byte("{oops"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Get("a", "K"); err == nil || !strings.Contains(err.Error(), f.Path) {
		t.Fatalf("Get: %v, want an error naming the file", err)
	}
	if err := f.Set("a", "K", "value"); err != nil {
		t.Fatal(err)
	}
	aside, _ := filepath.Glob(f.Path + ".unreadable-*")
	if len(aside) != 1 {
		t.Fatalf("copies aside: %v", aside)
	}
	if old, _ := os.ReadFile(aside[0]); string(old) != "{oops" {
		t.Fatalf("aside holds %q", old)
	}
}

// memSecrets is a keyring stand-in: a map, or failing every call.
type memSecrets struct {
	mu   sync.Mutex
	m    map[string]string
	fail error
}

func (s *memSecrets) Get(a, n string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fail != nil {
		return "", s.fail
	}
	v, ok := s.m[a+"/"+n]
	if !ok {
		return "", ErrNoSecret
	}
	return v, nil
}
func (s *memSecrets) Set(a, n, v string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fail != nil {
		return s.fail
	}
	s.m[a+"/"+n] = v
	return nil
}
func (s *memSecrets) Delete(a, n string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.m, a+"/"+n)
	return s.fail
}
func (s *memSecrets) Where() string { return "memory" }

func TestTheKeyringComesFirstAndTheFileStaysReadable(t *testing.T) {
	file := &FileSecrets{Path: filepath.Join(t.TempDir(), "secrets.json")}
	if err := file.Set("acme", "OLD", "from-the-file"); err != nil { // written before a keyring appeared
		t.Fatal(err)
	}
	kr := &memSecrets{m: map[string]string{}}
	c := &chain{primary: kr, fallback: file}
	if v, err := c.Get("acme", "OLD"); err != nil || v != "from-the-file" {
		t.Fatalf("a value only in the file: %q, %v", v, err)
	}
	if err := c.Set("acme", "OLD", "now-in-keyring"); err != nil {
		t.Fatal(err)
	}
	if _, err := file.Get("acme", "OLD"); !errors.Is(err, ErrNoSecret) {
		t.Fatalf("the file kept a copy after the keyring took it: %v", err)
	}
	if kr.m["acme/OLD"] != "now-in-keyring" {
		t.Fatalf("keyring %v", kr.m)
	}
	kr.fail = errors.New("locked")
	if err := c.Set("acme", "NEW", "x-value"); err == nil {
		t.Fatal("a failing keyring's Set was hidden: the value would be lost silently")
	}
}

// Without a session bus, OpenSecrets falls back to the file and never starts a bus itself.
func TestNoBusMeansTheFile(t *testing.T) {
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "")
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir()) // no "bus" socket in it
	dir := t.TempDir()
	s := OpenSecrets(dir)
	if _, ok := s.(*FileSecrets); !ok {
		t.Fatalf("OpenSecrets = %T, want the file", s)
	}
	if err := s.Set("a", "K", "value"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "secrets.json")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_RUNTIME_DIR", "")
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent")
	t.Setenv("AGENTDESK_NO_KEYRING", "1")
	if _, ok := OpenSecrets(dir).(*FileSecrets); !ok {
		t.Fatal("AGENTDESK_NO_KEYRING=1 did not choose the file")
	}
}
