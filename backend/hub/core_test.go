package hub

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// isolatedFolders points the history, agents.json, the secrets and the registry at temp
// folders, without a keyring.
func isolatedFolders(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	t.Setenv("AGENTDESK_DB", filepath.Join(dir, "history.db"))
	t.Setenv("AGENTDESK_NO_KEYRING", "1")
	return dir
}

// Open runs without a history only where the front end said it may (StoreOptional: the window,
// run, chat), fails where one is required, opens none for StoreNone, and never changes a
// file it could not open; the core it gives works and closes either way.
func TestOpenRunsWithoutAHistoryOnlyWhereAsked(t *testing.T) {
	dir := isolatedFolders(t)
	ctx := context.Background()
	bad := filepath.Join(dir, "not-a-db")
	if err := os.WriteFile(bad, []byte("this is not SQLite"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, mode := range []StoreMode{StoreRequired, StoreReadable} {
		if c, err := Open(ctx, Options{DB: bad, Store: mode}); err == nil {
			c.Close(ctx)
			t.Fatalf("mode %d opened a file that is not a history", mode)
		}
	}
	c, err := Open(ctx, Options{DB: bad, Store: StoreOptional, Recover: true})
	if err != nil || c.Store != nil || c.StoreErr == nil || c.Catalog == nil || c.Hub == nil {
		t.Fatalf("StoreOptional on a bad file: %+v, %v", c, err)
	}
	if err := c.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(bad); string(data) != "this is not SQLite" {
		t.Fatal("a file named by DB was changed")
	}
	c, err = Open(ctx, Options{Store: StoreNone})
	if err != nil || c.Store != nil || c.StoreErr != nil || c.Ledger != nil {
		t.Fatalf("StoreNone: %+v, %v", c, err)
	}
	c.Close(ctx)
	if _, err := os.Stat(os.Getenv("AGENTDESK_DB")); !os.IsNotExist(err) {
		t.Fatalf("StoreNone made a history: %v", err)
	}
	c, err = Open(ctx, Options{Store: StoreRequired})
	if err != nil || c.Store == nil || c.Ledger == nil || c.LedgerErr != nil || c.RegistryErr != nil {
		t.Fatalf("StoreRequired on the default history: %+v, %v", c, err)
	}
	if err := c.Close(ctx); err != nil {
		t.Fatal(err)
	}
}
