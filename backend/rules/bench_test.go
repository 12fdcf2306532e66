package rules

import (
	"fmt"
	"path/filepath"
	"testing"
)

// BenchmarkMatch measures what a permission request waits for before it is shown: matching it
// against 200 rules (paths resolved against the file system, command lines parsed), beside the
// baseline of placing its paths alone (placeRequest: the symlink resolution every path rule needs).
// The ratio says how much the rules themselves add.
func BenchmarkMatch(b *testing.B) {
	proj := b.TempDir()
	var rs []Rule
	for i := range 200 {
		rs = append(rs, Rule{ID: fmt.Sprint(i), AgentID: "a", Folder: proj, Kind: "edit", Path: fmt.Sprintf("pkg%d/**", i), Decision: Allow},
			Rule{ID: fmt.Sprint("c", i), Kind: "execute", Command: fmt.Sprintf("tool%d run", i), Decision: Allow})
	}
	read := Request{AgentID: "a", Folders: []string{proj}, Kind: "edit", Paths: []string{filepath.Join(proj, "pkg150", "x", "y.go")}}
	exec := Request{AgentID: "a", Folders: []string{proj}, Kind: "execute", Command: "tool150 run --all ./..."}
	b.Run("place-paths-baseline", func(b *testing.B) {
		for b.Loop() {
			placeRequest(read)
		}
	})
	b.Run("path-400-rules", func(b *testing.B) {
		for b.Loop() {
			if Match(rs, read) == nil {
				b.Fatal("no match")
			}
		}
	})
	b.Run("command-400-rules", func(b *testing.B) {
		for b.Loop() {
			if Match(rs, exec) == nil {
				b.Fatal("no match")
			}
		}
	})
}
