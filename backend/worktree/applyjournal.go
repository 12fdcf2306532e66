package worktree

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"agentdesk/backend/atomicfile"
)

// An Apply writes the person's files all at once, across a crash too:
//
//  1. A journal naming every temporary file and every folder it will make is written
//     (prepared) in the Manager's .apply folder.
//  2. The new files are written beside their targets under temporary names, and synced.
//  3. Each target is read again; if one changed since it was planned, everything from step 2
//     is removed and the Apply reports it.
//  4. The journal is marked committed (replaced whole, synced).
//  5. Each temporary file is renamed over its target and each deleted file removed.
//  6. The journal is removed.
//
// Recover (and the next Apply of the repository) finishes a journal left by a crash: a prepared
// one is undone (temporary files and new folders removed), a committed one is done (the
// remaining renames and deletions). So the person's tree ends with none of the files or all.

// applyTempPrefix starts the name of every temporary file Apply writes in the person's tree.
const applyTempPrefix = ".agentdesk-apply-"

// journal is an Apply under way.
type journal struct {
	Repo      string        `json:"repo"`
	Committed bool          `json:"committed"`
	Made      []string      `json:"made,omitempty"` // folders it made, parents first
	Steps     []journalStep `json:"steps"`
}

// journalStep is one file: Temp renamed over Name, or Name removed when Delete.
type journalStep struct {
	Name   string `json:"name"`
	Temp   string `json:"temp,omitempty"`
	Delete bool   `json:"delete,omitempty"`
}

// The tests' seams: afterPrepare runs between steps 2 and 3 (a change meanwhile), afterStep
// after each rename or removal of step 5 (a crash).
var (
	afterPrepare = func() {}
	afterStep    = func(int) {}
)

// journalPath is where the Apply of repository repo keeps its journal.
func (m *Manager) journalPath(repo string) string {
	return filepath.Join(m.root, ".apply", repoKey(repo)+".json")
}

// commitPlans writes plans into the person's tree (steps 1 to 6). It returns the path of a
// file that changed since it was planned, with nothing written, or "" when all are written.
func (m *Manager) commitPlans(root *os.Root, repo string, plans []filePlan) (string, error) {
	j := journal{Repo: repo}
	wants := map[string]version{} // a temporary file's name: what it holds
	for _, p := range plans {
		name, _ := localName(p.Path)
		switch p.Action {
		case ApplyDelete:
			j.Steps = append(j.Steps, journalStep{Name: name, Delete: true})
		case ApplyWrite, ApplyMerge:
			j.Made = append(j.Made, missingFolders(root, name, j.Made)...)
			temp := filepath.Join(filepath.Dir(name), applyTempPrefix+randomHex())
			wants[temp] = p.want
			j.Steps = append(j.Steps, journalStep{Name: name, Temp: temp})
		}
	}
	if len(j.Steps) == 0 {
		return "", nil
	}
	path := m.journalPath(repo)
	if err := writeJournal(path, j); err != nil {
		return "", err
	}
	changed, err := prepare(root, j, wants, plans)
	if err == nil && changed == "" {
		j.Committed = true
		err = writeJournal(path, j)
	}
	if err != nil || changed != "" {
		undo(root, j)
		os.Remove(path)
		return changed, err
	}
	if err := finish(root, j); err != nil {
		return "", fmt.Errorf("%w (agentdesk finishes it when it next starts)", err)
	}
	return "", os.Remove(path)
}

// prepare makes j's folders and writes its temporary files (step 2), then checks that the
// person's files are still as planned (step 3): a changed one's path is returned.
func prepare(root *os.Root, j journal, wants map[string]version, plans []filePlan) (string, error) {
	for _, dir := range j.Made {
		if err := root.Mkdir(dir, 0o755); err != nil && !errors.Is(err, os.ErrExist) {
			return "", err
		}
	}
	for _, s := range j.Steps {
		if s.Temp == "" {
			continue
		}
		if err := writeTemp(root, s.Temp, wants[s.Temp]); err != nil {
			return "", err
		}
	}
	afterPrepare()
	for _, p := range plans {
		if p.Action == ApplySame {
			continue
		}
		name, _ := localName(p.Path)
		if now, _ := readOurs(root, name); !now.equal(p.ours) {
			return p.Path, nil
		}
	}
	return "", nil
}

// writeTemp writes v as a new file (or link) named temp, synced.
func writeTemp(root *os.Root, temp string, v version) error {
	if v.kind == symlink {
		return root.Symlink(string(v.data), temp)
	}
	f, err := root.OpenFile(temp, os.O_WRONLY|os.O_CREATE|os.O_EXCL|noFollow, 0o600)
	if err != nil {
		return err
	}
	mode := os.FileMode(0o644)
	if v.kind == executable {
		mode = 0o755
	}
	_, err = f.Write(v.data)
	if err == nil {
		err = f.Chmod(mode) // on the open file: no link can redirect it
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// finish renames j's temporary files over their targets and removes its deleted files (step
// 5); what is done already is skipped, so it can run again after a crash.
func finish(root *os.Root, j journal) error {
	for i, s := range j.Steps {
		var err error
		if s.Delete {
			err = root.Remove(s.Name)
		} else if _, lerr := root.Lstat(s.Temp); lerr == nil {
			err = root.Rename(s.Temp, s.Name)
		}
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
		afterStep(i)
	}
	return nil
}

// undo removes what prepare made: the temporary files, then the folders it made if empty.
func undo(root *os.Root, j journal) {
	for _, s := range j.Steps {
		if s.Temp != "" && strings.HasPrefix(filepath.Base(s.Temp), applyTempPrefix) {
			root.Remove(s.Temp)
		}
	}
	for i := len(j.Made) - 1; i >= 0; i-- {
		root.Remove(j.Made[i]) // fails, and so keeps it, when not empty
	}
}

// missingFolders lists the folders above name that do not exist yet and are not in made.
func missingFolders(root *os.Root, name string, made []string) []string {
	var missing []string
	for dir := filepath.Dir(name); dir != "."; dir = filepath.Dir(dir) {
		if _, err := root.Lstat(dir); err == nil {
			break
		}
		known := false
		for _, d := range made {
			known = known || d == dir
		}
		if !known {
			missing = append([]string{dir}, missing...)
		}
	}
	return missing
}

// Recover finishes every Apply a crash interrupted (see the journal above): each person's tree
// ends with all of that Apply's files or none. It is run when agentdesk starts; an Apply runs it
// for its repository first. The errors of the journals it could not finish are joined.
func (m *Manager) Recover() error {
	entries, err := os.ReadDir(filepath.Join(m.root, ".apply"))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	} else if err != nil {
		return fmt.Errorf("finish interrupted applies: %w", err)
	}
	var errs []error
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		j, err := readJournal(filepath.Join(m.root, ".apply", e.Name()))
		if err == nil {
			err = func() error {
				unlock, err := m.lockRepo(j.Repo)
				if err != nil {
					return err
				}
				defer unlock()
				return m.recoverRepo(j.Repo)
			}()
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("finish the interrupted apply %s: %w", e.Name(), err))
		}
	}
	return errors.Join(errs...)
}

// recoverRepo finishes the journal of repo's interrupted Apply, if any; its lock is held.
func (m *Manager) recoverRepo(repo string) error {
	path := m.journalPath(repo)
	j, err := readJournal(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	} else if err != nil {
		return err
	}
	root, err := os.OpenRoot(j.Repo)
	if err != nil {
		return err
	}
	defer root.Close()
	if !j.Committed {
		undo(root, j)
	} else if err := finish(root, j); err != nil {
		return err
	}
	return os.Remove(path)
}

func writeJournal(path string, j journal) error {
	data, err := json.Marshal(j)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	return atomicfile.Write(path, data, 0o600)
}

func readJournal(path string) (journal, error) {
	f, err := os.Open(path)
	if err != nil {
		return journal{}, err
	}
	defer f.Close()
	var j journal
	if err := json.NewDecoder(io.LimitReader(f, 64<<20)).Decode(&j); err != nil {
		return journal{}, fmt.Errorf("read %s: %w", path, err)
	}
	return j, nil
}

func randomHex() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
