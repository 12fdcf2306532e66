//go:build unix

package worktree

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// crashEnv hands the child process of TestAnApplyKilledMidwayEndsWithAllOrNone its Apply.
const crashEnv = "AGENTDESK_TEST_APPLY_CRASH"

type crashJob struct {
	Root  string `json:"root"`
	Tree  Tree   `json:"tree"`
	Where string `json:"where"` // "prepared" or "renamed": where the child stops to be killed
}

// TestApplyCrashChild is the process the crash test kills: it applies and stops where told,
// saying so on stdout. It is skipped in a normal run.
func TestApplyCrashChild(t *testing.T) {
	var job crashJob
	if err := json.Unmarshal([]byte(os.Getenv(crashEnv)), &job); err != nil {
		t.Skip("run by TestAnApplyKilledMidwayEndsWithAllOrNone only")
	}
	stop := func() {
		fmt.Println(job.Where)
		select {} // until killed
	}
	if job.Where == "prepared" {
		afterPrepare = stop
	} else {
		afterStep = func(int) { stop() }
	}
	res, err := NewManager(job.Root, CLI{}).Apply(context.Background(), job.Tree, true)
	t.Fatalf("Apply returned (%+v, %v) where it should have been killed", res, err)
}

func TestAnApplyKilledMidwayEndsWithAllOrNone(t *testing.T) {
	for _, where := range []string{"prepared", "renamed"} {
		t.Run(where, func(t *testing.T) {
			repo := personsRepo(t)
			m, tr := session(t, repo)
			files := map[string]string{"sub/lib.go": "package sub // one\n", "new/dir/two.go": "package dir\n", "README": ""}
			write(t, filepath.Join(tr.Path, "sub", "lib.go"), files["sub/lib.go"])
			write(t, filepath.Join(tr.Path, "new", "dir", "two.go"), files["new/dir/two.go"])
			os.Remove(filepath.Join(tr.Path, "README"))
			write(t, filepath.Join(repo, "README"), "readme\n") // as at the base: the deletion applies
			before := map[string]string{"sub/lib.go": read(t, filepath.Join(repo, "sub", "lib.go")), "README": read(t, filepath.Join(repo, "README"))}

			job, _ := json.Marshal(crashJob{Root: m.root, Tree: tr, Where: where})
			child := exec.Command(os.Args[0], "-test.run=^TestApplyCrashChild$")
			child.Env = append(os.Environ(), crashEnv+"="+string(job))
			out, err := child.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := child.Start(); err != nil {
				t.Fatal(err)
			}
			r := bufio.NewReader(out)
			line, err := r.ReadString('\n')
			child.Process.Kill()
			child.Wait()
			if line != where+"\n" {
				rest, _ := io.ReadAll(r)
				t.Fatalf("the child said %q%s (%v); want %q", line, rest, err, where)
			}
			if _, err := os.Stat(m.journalPath(tr.Repo)); err != nil {
				t.Fatalf("the killed Apply left no journal: %v", err)
			}

			// The next start of agentdesk finishes it: all of the files or none.
			if err := NewManager(m.root, CLI{}).Recover(); err != nil {
				t.Fatal(err)
			}
			if where == "prepared" {
				for f, text := range before {
					if got := read(t, filepath.Join(repo, f)); got != text {
						t.Errorf("%s = %q after recovering an uncommitted Apply; want it as it was", f, got)
					}
				}
				if _, err := os.Lstat(filepath.Join(repo, "new")); !os.IsNotExist(err) {
					t.Errorf("the folder the Apply made is still there: %v", err)
				}
			} else {
				for f, text := range files {
					got, err := os.ReadFile(filepath.Join(repo, f))
					if f == "README" && !os.IsNotExist(err) || f != "README" && string(got) != text {
						t.Errorf("%s = %q, %v after recovering a committed Apply; want the session's", f, got, err)
					}
				}
			}
			noTemps(t, repo)
			if _, err := os.Stat(m.journalPath(tr.Repo)); !os.IsNotExist(err) {
				t.Fatalf("the journal is still there: %v", err)
			}
		})
	}
}
