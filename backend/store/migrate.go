package store

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
)

// applicationID marks agentdesk files ("ADK1"); 0001_init.sql sets it.
const applicationID = 0x41444b31

//go:embed migrations/*.sql
var migrationFS embed.FS

// migration is one embedded migrations/NNNN_name.sql file.
type migration struct {
	version int
	name    string
	sql     string
}

// migrations returns the embedded migrations in order. Versions must be 1, 2, 3...
func migrations() ([]migration, error) {
	names, err := fs.Glob(migrationFS, "migrations/*.sql")
	if err != nil {
		return nil, fmt.Errorf("list embedded migrations: %w", err)
	}
	var ms []migration
	for _, name := range names {
		base := path.Base(name)
		num, _, ok := strings.Cut(base, "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || v <= 0 {
			return nil, fmt.Errorf("migration %s: name must be NNNN_name.sql", base)
		}
		body, err := migrationFS.ReadFile(name)
		if err != nil {
			return nil, fmt.Errorf("migration %s: %w", base, err)
		}
		ms = append(ms, migration{version: v, name: base, sql: string(body)})
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].version < ms[j].version })
	for i, m := range ms {
		if m.version != i+1 {
			return nil, fmt.Errorf("migration %s: expected version %d", m.name, i+1)
		}
	}
	return ms, nil
}

// errInvalid says a file is not an agentdesk database: not SQLite, damaged, or another
// program's SQLite file.
var errInvalid = errors.New("not a valid agentdesk database")

// newerError says a file is an agentdesk database from a newer agentdesk.
type newerError struct{ version, known int }

func (e *newerError) Error() string {
	return fmt.Sprintf("written by a newer agentdesk (schema version %d; this one knows %d)", e.version, e.known)
}

// checkIdentity refuses SQLite files that are not ours: a file with tables but no schema
// version, a versioned file without our application_id, or a version from a newer agentdesk.
func checkIdentity(ctx context.Context, db *sql.DB) error {
	var version, appID, tables int
	if err := db.QueryRowContext(ctx, `SELECT (SELECT user_version FROM pragma_user_version),
		(SELECT application_id FROM pragma_application_id),
		(SELECT count(*) FROM sqlite_schema)`).Scan(&version, &appID, &tables); err != nil {
		return fmt.Errorf("read schema version: %w", err)
	}
	ms, err := migrations()
	if err != nil {
		return err
	}
	switch {
	case version == 0 && tables > 0:
		return fmt.Errorf("%w: it holds another application's tables", errInvalid)
	case version > 0 && appID != applicationID:
		return fmt.Errorf("%w: application_id is %#x", errInvalid, appID)
	case version > len(ms):
		return &newerError{version: version, known: len(ms)}
	}
	return nil
}

// migrate applies the embedded migrations the file lacks, each in its own transaction that
// also records its number in PRAGMA user_version. The version is re-read under the write lock,
// so two processes opening a new file at once apply each migration once.
func migrate(ctx context.Context, db *sql.DB) error {
	ms, err := migrations()
	if err != nil {
		return err
	}
	for _, m := range ms {
		if err := apply(ctx, db, m); err != nil {
			return fmt.Errorf("migration %s: %w", m.name, err)
		}
	}
	return nil
}

// apply runs one migration unless the database already has it.
func apply(ctx context.Context, db *sql.DB, m migration) error {
	tx, err := db.BeginTx(ctx, nil) // BEGIN IMMEDIATE (see dsn)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var version int
	if err := tx.QueryRowContext(ctx, `PRAGMA user_version`).Scan(&version); err != nil {
		return err
	}
	if version >= m.version {
		return nil
	}
	if _, err := tx.ExecContext(ctx, m.sql); err != nil {
		return err
	}
	// PRAGMA takes no bound parameters; m.version is an int we parsed.
	if _, err := tx.ExecContext(ctx, fmt.Sprintf(`PRAGMA user_version = %d`, m.version)); err != nil {
		return err
	}
	return tx.Commit()
}
