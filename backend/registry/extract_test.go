//go:build unix

package registry

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/flate"
	"context"
	"hash/crc32"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// Links are judged by where they lead through the tree as written, not by their text: each
// case's links all look inside the folder when read lexically, and each leads out of it.
func TestExtractResolvesLinksThroughTheTree(t *testing.T) {
	link := func(name, target string) tarEntry { return tarEntry{name: name, typ: tar.TypeSymlink, link: target} }
	cases := map[string][]tarEntry{
		// l/up is made inside l, that is in the folder itself, so ".." is its parent.
		"chain then a write through it": {link("l", "."), link("l/up", ".."), {name: "l/up/x", body: "escaped"}},
		"chain left for the agent":      {link("l", "."), link("l/up", "..")},
		"link through an earlier link":  {link("l", "."), link("b", "l/..")},
		"link through a later link":     {link("a", "c/.."), link("c", ".")},
		"link to a link leading out":    {{name: "d/", typ: tar.TypeDir}, link("d/in", "."), link("d/out", "in/.."), link("hop", "d/out/..")},
		"loop":                          {link("p", "q"), link("q", "p")},
	}
	for name, entries := range cases {
		t.Run(name, func(t *testing.T) {
			inst, err := installEvil(t, entries)
			if err == nil || !strings.Contains(err.Error(), "refused the") || !strings.Contains(err.Error(), "outside the install folder") {
				t.Fatalf("installed an archive whose links lead out (%s): %v", name, err)
			}
			// The install folder's parent is where an escaping link lands: it must hold nothing.
			if ents, _ := os.ReadDir(filepath.Join(inst.Root, "evil")); len(ents) != 0 {
				t.Fatalf("left in the agent's folder: %v", ents)
			}
			if st, _ := inst.Installed(); len(st) != 0 {
				t.Fatalf("recorded as installed: %+v", st)
			}
		})
	}
}

// Links that stay inside, however they get there, are kept: the rule refuses what leaves, not
// what is unusual.
func TestExtractKeepsLinksThatStayInside(t *testing.T) {
	reg := newFixtureRegistry(t)
	archive := tarGz(t, []tarEntry{
		{name: "bin/agent", typ: tar.TypeSymlink, link: "../lib/real"}, // before its target, as tar often has it
		{name: "lib/real", body: agentScript("linked")},
		{name: "lib/self", typ: tar.TypeSymlink, link: "."},
		{name: "lib/back", typ: tar.TypeSymlink, link: "self/../bin"}, // through a link, still inside
		{name: "lib/dangling", typ: tar.TypeSymlink, link: "missing/file"},
	})
	e := Entry{ID: "linked", Name: "Linked", Version: "1.0.0", Distribution: Distribution{Binary: map[string]Target{
		"linux-x86_64": {Archive: reg.put(t, "linked.tar.gz", archive), Cmd: "bin/agent"}}}}
	in, err := newInstaller(t).Install(context.Background(), e)
	if err != nil {
		t.Fatal(err)
	}
	if got := run(t, in); got != "fixture-agent linked" {
		t.Fatalf("the linked agent printed %q", got)
	}
}

// writeArchive saves data as a file named name in a temp folder and returns its path.
func writeArchive(t *testing.T, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// diskUse is what the files under dir take on disk (allocated blocks, not their stated
// sizes), and their number.
func diskUse(t *testing.T, dir string) (used int64, files int) {
	t.Helper()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		files++
		if st, ok := info.Sys().(*syscall.Stat_t); ok {
			used += st.Blocks * 512
		} else {
			used += info.Size()
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return used, files
}

// zipOf builds a zip of deflated entries, each name → its data.
func zipOf(t *testing.T, names []string, data func(i int) []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for i, n := range names {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: n, Method: zip.Deflate})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(data(i)); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// lyingZip is a zip of one entry whose header says it holds 100 bytes and whose deflated
// data expands to size bytes of zeros.
func lyingZip(t *testing.T, size int) []byte {
	t.Helper()
	var raw bytes.Buffer
	fw, _ := flate.NewWriter(&raw, flate.BestCompression)
	zeros := make([]byte, size)
	fw.Write(zeros)
	fw.Close()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.CreateRaw(&zip.FileHeader{Name: "agent", Method: zip.Deflate, CRC32: crc32.ChecksumIEEE(zeros[:100]),
		CompressedSize64: uint64(raw.Len()), UncompressedSize64: 100})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(raw.Bytes()); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// A bomb is refused by what its headers say before a byte of it is written, and one whose
// header lies is cut where the header said it ends: the extraction folder never holds more
// than the cap and one copy buffer.
func TestExtractBombsStopBeforeTheDiskFills(t *testing.T) {
	const mib = 1 << 20
	names := func(n int) []string {
		var list []string
		for i := range n {
			list = append(list, "part"+strconv.Itoa(i))
		}
		return list
	}
	cases := []struct {
		name, file string
		archive    []byte
		want       string
		maxUse     int64 // disk use allowed at the refusal
	}{
		{"many entries past the cap", "many.zip", zipOf(t, names(16), func(int) []byte { return make([]byte, mib/8) }),
			"more than the size allowed", 0},
		{"one entry past the per-file cap", "one.zip", zipOf(t, []string{"agent"}, func(int) []byte { return make([]byte, 3*mib/4) }),
			"larger than the", 0},
		{"a header that lies about its size", "lying.zip", lyingZip(t, 64*mib), "more data than its header declares", 100 + 32<<10},
		{"tar entries past the cap", "big.tar.gz", tarGz(t, []tarEntry{{name: "a", body: strings.Repeat("\x00", 2*mib/5)},
			{name: "b", body: strings.Repeat("\x00", 2*mib/5)}, {name: "c", body: strings.Repeat("\x00", 2*mib/5)}}),
			"more than the size allowed", mib}, // a and b are written, c is refused by its header
		{"tar entries past the count cap", "count.tar.gz", tarGz(t, func() (es []tarEntry) {
			for _, n := range names(33) {
				es = append(es, tarEntry{name: n})
			}
			return es
		}()), "more than 32 entries", 0},
		{"zip entries past the count cap", "count.zip", zipOf(t, names(33), func(int) []byte { return nil }),
			"more than 32 entries", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			inst := &Installer{MaxExtract: mib, MaxEntry: mib / 2, MaxEntries: 32}
			dir := t.TempDir()
			err := inst.extract(writeArchive(t, c.file, c.archive), c.file, dir, "agent")
			if used, files := diskUse(t, dir); used > c.maxUse {
				t.Errorf("the bomb took %d bytes on disk in %d files (at most %d allowed)", used, files, c.maxUse)
			}
			if err == nil || !strings.Contains(err.Error(), "refused the") || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("extracted a bomb: %v", err)
			}
		})
	}
}
