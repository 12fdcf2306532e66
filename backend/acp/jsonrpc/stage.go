package jsonrpc

// stageChunk is the size of the pieces a long line is gathered in.
const stageChunk = 4 << 20

// stage gathers a line longer than the reader's buffer until its end arrives, in chunks of
// memory taken outside the Go heap where the system allows (stage_mmap.go) and given back the
// moment the line is joined (free). Gathered in the heap, the pieces of a huge line stayed
// there as garbage, as big as the line, until the collector ran: with the joined line and the
// text decoded from it that made three times the line. Only the reading goroutine uses a stage.
type stage struct {
	chunks []chunk
	n      int // bytes gathered
}

// chunk is one piece of a stage: mem is full but in the last chunk; mapped says it was taken
// outside the heap and must be unmapped.
type chunk struct {
	mem    []byte
	used   int
	mapped bool
}

// write appends p, which the caller may reuse once write returns.
func (s *stage) write(p []byte) {
	for len(p) > 0 {
		if len(s.chunks) == 0 || s.chunks[len(s.chunks)-1].used == len(s.chunks[len(s.chunks)-1].mem) {
			s.chunks = append(s.chunks, newChunk(stageChunk))
		}
		c := &s.chunks[len(s.chunks)-1]
		k := copy(c.mem[c.used:], p)
		c.used += k
		s.n += k
		p = p[k:]
	}
}

// join returns what was gathered followed by tail, in one heap allocation of exactly that size,
// and frees the stage.
func (s *stage) join(tail []byte) []byte {
	line := make([]byte, 0, s.n+len(tail))
	for _, c := range s.chunks {
		line = append(line, c.mem[:c.used]...)
	}
	s.free()
	return append(line, tail...)
}

// free gives the chunks back; the stage is empty afterwards. It is safe to call twice.
func (s *stage) free() {
	for _, c := range s.chunks {
		if c.mapped {
			unmapChunk(c.mem)
		}
	}
	s.chunks, s.n = nil, 0
}

// newChunk takes size bytes outside the heap, or from the heap when the system refuses.
func newChunk(size int) chunk {
	if mem, ok := mapChunk(size); ok {
		return chunk{mem: mem, mapped: true}
	}
	return chunk{mem: make([]byte, size)}
}
