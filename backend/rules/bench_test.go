package rules

import (
	"fmt"
	"path/filepath"
	"testing"
)

// BenchmarkMatch measures what a permission request waits for before it is shown: matching it
// against 400 rules compiled once (Set: the hub keeps one per edit of the rules; paths resolved
// against the file system, the request's command line parsed), beside the baseline of placing
// its paths alone (placeRequest: the symlink resolution every path rule needs), and what
// compiling the 400 costs (once per edit). Budget (docs/performance.md): a command against 400
// rules at most 50 µs.
func BenchmarkMatch(b *testing.B) {
	proj := b.TempDir()
	var rs []Rule
	for i := range 200 {
		rs = append(rs, Rule{ID: fmt.Sprint(i), AgentID: "a", Folder: proj, Kind: "edit", Path: fmt.Sprintf("pkg%d/**", i), Decision: Allow},
			Rule{ID: fmt.Sprint("c", i), Kind: "execute", Command: fmt.Sprintf("tool%d run", i), Decision: Allow})
	}
	read := Request{AgentID: "a", Folders: []string{proj}, Kind: "edit", Paths: []string{filepath.Join(proj, "pkg150", "x", "y.go")}}
	exec := Request{AgentID: "a", Folders: []string{proj}, Kind: "execute", Command: "tool150 run --all ./..."}
	set := Compile(rs)
	b.Run("place-paths-baseline", func(b *testing.B) {
		for b.Loop() {
			placeRequest(read)
		}
	})
	b.Run("path-400-rules", func(b *testing.B) {
		for b.Loop() {
			if set.Match(read) == nil {
				b.Fatal("no match")
			}
		}
	})
	b.Run("command-400-rules", func(b *testing.B) {
		for b.Loop() {
			if set.Match(exec) == nil {
				b.Fatal("no match")
			}
		}
	})
	b.Run("compile-400-rules", func(b *testing.B) {
		for b.Loop() {
			Compile(rs)
		}
	})
}
