package jsonrpc

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
)

// patterned is a line of n bytes whose every byte depends on its place and on i, so a piece
// lost, doubled or swapped at a chunk's edge changes it.
func patterned(i, n int) []byte {
	b := make([]byte, n)
	for j := range b {
		b[j] = byte('a' + (j*7+i)%26)
	}
	return b
}

// TestReadLineGathersLongLinesWhole: lines shorter and longer than the reader's buffer, on and
// around the edges of a stage's chunks, come out whole and in order, without "\n" or a trailing
// "\r"; the last may end without "\n"; nothing stays mapped afterwards.
func TestReadLineGathersLongLinesWhole(t *testing.T) {
	sizes := []int{0, 1, 15, 16, 17, stageChunk - 1, stageChunk, stageChunk + 1, 2*stageChunk + 17, 100}
	var wire bytes.Buffer
	var want [][]byte
	for i, n := range sizes {
		line := patterned(i, n)
		want = append(want, line)
		wire.Write(line)
		if i%2 == 1 {
			wire.WriteByte('\r')
		}
		if i < len(sizes)-1 {
			wire.WriteByte('\n')
		}
	}
	br := bufio.NewReaderSize(&wire, 16)
	for i, w := range want {
		got, err := readLine(br, MaxLineBytes)
		if i < len(want)-1 && err != nil || i == len(want)-1 && !errors.Is(err, io.EOF) {
			t.Fatalf("line %d: error %v", i, err)
		}
		if !bytes.Equal(got, w) {
			t.Fatalf("line %d of %d bytes came out as %d bytes (equal: %v)", i, len(w), len(got), bytes.Equal(got, w))
		}
		if n := mappedBytes.Load(); n != 0 {
			t.Fatalf("after line %d, %d bytes are still mapped", i, n)
		}
	}
}

// TestReadLineRefusesALineOverTheLimit: a line longer than the limit is ErrLineTooLong as soon
// as it passes it, and what was gathered of it is given back.
func TestReadLineRefusesALineOverTheLimit(t *testing.T) {
	const limit = stageChunk + 1000
	wire := io.MultiReader(strings.NewReader(strings.Repeat("x", limit+10)), neverEnds{})
	if _, err := readLine(bufio.NewReaderSize(wire, 16), limit); !errors.Is(err, ErrLineTooLong) {
		t.Fatalf("a line over the limit: %v, want ErrLineTooLong", err)
	}
	if n := mappedBytes.Load(); n != 0 {
		t.Fatalf("%d bytes of the refused line are still mapped", n)
	}
}

// neverEnds is a peer that keeps the line going: reading must stop at the limit, not at EOF.
type neverEnds struct{}

func (neverEnds) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'y'
	}
	return len(p), nil
}
