package store

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// OpenOrRecover is Open for the app's own history file. When Open fails because the file at
// path is not a valid agentdesk database (not SQLite, a damaged header or schema, another
// program's SQLite file, or a file written by a newer agentdesk), it moves the file and its
// -wal, -shm and -journal companions to "<path>.corrupt-<UTC time>" (nothing is deleted),
// opens a new, empty database at path and returns, with the store, a notice for the user
// naming both paths. It tries once. Any other failure (permission denied, read-only folder
// or disk, disk full, locked by another program) is returned as Open returns it, saying
// what to do, and nothing is moved; so is a file that another agentdesk process has open
// (a newer version may be using it). notice is "" when nothing was moved.
//
// Use it for the default path. A path the user chose (--db, AGENTDESK_DB) may be another
// program's file by mistake: Open refuses it without moving it.
func OpenOrRecover(ctx context.Context, path string, opts ...Option) (s *Store, notice string, err error) {
	cfg := newConfig(opts)
	s, err = open(ctx, path, cfg)
	if err == nil || !(errors.Is(err, errInvalid) || isNewer(err)) {
		return s, "", err
	}
	aside := path + ".corrupt-" + cfg.now().UTC().Format("20060102T150405Z")
	if merr := setAside(path, aside); merr != nil {
		return nil, "", fmt.Errorf("%w (moving it to %s failed: %w)", err, aside, merr)
	}
	var ne *newerError
	if errors.As(err, &ne) {
		notice = fmt.Sprintf("The history file %s was not a valid agentdesk database for this version: "+
			"it was %s; it was moved to %s; a new empty history was started. "+
			"The newer agentdesk can open it once it is moved back.", path, ne, aside)
	} else {
		notice = fmt.Sprintf("The history file %s was not a valid agentdesk database; it was moved to %s; "+
			"a new empty history was started.", path, aside)
	}
	s, err = open(ctx, path, cfg)
	if err != nil {
		return nil, "", fmt.Errorf("%s But the new history could not be created: %w", notice, err)
	}
	return s, notice, nil
}

// asideSuffixes are the files SQLite keeps next to a database, moved along with it. The
// -wal goes first: left behind, SQLite would replay it into the new database.
var asideSuffixes = []string{"-wal", "-shm", "-journal", ""}

// setAside renames path and its companions to aside (plus the same suffixes), unless
// another agentdesk process has path open or a file is already at aside. On failure it puts
// back what it had moved.
func setAside(path, aside string) error {
	live, alone, err := acquireLiveness(path)
	if err != nil {
		return err
	}
	defer live.release()
	if !alone {
		return errors.New("another agentdesk process has it open; quit it first")
	}
	for _, suffix := range asideSuffixes {
		if _, err := os.Lstat(aside + suffix); !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("%s already exists", aside+suffix)
		}
	}
	var moved []string
	for _, suffix := range asideSuffixes {
		err := os.Rename(path+suffix, aside+suffix)
		if errors.Is(err, fs.ErrNotExist) && suffix != "" {
			continue
		}
		if err != nil {
			for _, m := range moved {
				os.Rename(aside+m, path+m) // best effort: the error below is what matters
			}
			return err
		}
		moved = append(moved, suffix)
	}
	return nil
}
