package changes

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"sort"
)

// Entry kinds in a tree.
const (
	kindFile = 'f'
	kindExec = 'x' // a file with an execute bit
	kindLink = 'l' // a symbolic link: its blob is the link's target
	kindDir  = 'd'
)

// entry is one name in a directory record (a tree). Size, mtime and inode serve as the stat
// cache of the next snapshot: a file whose three match is not read again. Mtime 0 means
// "do not trust": the file changed too close to the snapshot to be sure (racy git's rule).
type entry struct {
	name  string
	kind  byte
	size  int64
	mtime int64 // unix nanoseconds
	ino   uint64
	hash  Hash // blob or tree; "" for a file not kept (big)
	big   bool // over the cap (or the snapshot's budget): listed, not kept
	// inline: the content (data, hashed as hash) is kept in the directory record itself, not
	// as an object of its own: a tiny file would otherwise cost a whole disk block.
	inline bool
	data   []byte
}

// Inline content: a file or link target of at most inlineMax bytes is kept in its directory's
// record, up to inlineBudget bytes a record (the record is written again whenever anything in
// the directory changes: the budget bounds that cost).
const (
	inlineMax    = 512
	inlineBudget = 32 << 10
)

// blob is the content of file or link entry e: from its directory record, or from the store.
func (l *Ledger) blob(e *entry) ([]byte, error) {
	if e.inline {
		return e.data, nil
	}
	return l.objs.get(e.hash)
}

func (e *entry) isDir() bool { return e.kind == kindDir }

// sameContent says whether a and b hold the same thing, as far as the ledger can tell: the
// same blob, or for files not kept the same size and time.
func sameContent(a, b *entry) bool {
	if a.kind != b.kind || a.big != b.big {
		return false
	}
	if a.big {
		return a.size == b.size && a.mtime == b.mtime && a.mtime != 0
	}
	return a.hash == b.hash
}

// Directory record formats: version 2 adds inline content (flag 2: the content's length and
// bytes follow the name). A record with nothing inline is written as version 1, byte for byte
// as before, so ledgers written before version 2 read and deduplicate as they did.
const (
	treeMagic   = "adkT1\n"
	treeMagicV2 = "adkT2\n"
)

// Entry flags in a directory record.
const (
	flagBig    = 1
	flagInline = 2
)

// encodeTree renders entries (sorted here by name) as a tree object.
func encodeTree(es []entry) []byte {
	sort.Slice(es, func(i, j int) bool { return es[i].name < es[j].name })
	magic := treeMagic
	for i := range es {
		if es[i].inline {
			magic = treeMagicV2
			break
		}
	}
	b := make([]byte, 0, len(magic)+len(es)*64)
	b = append(b, magic...)
	for i := range es {
		e := &es[i]
		flags := byte(0)
		if e.big {
			flags |= flagBig
		}
		if e.inline {
			flags |= flagInline
		}
		b = append(b, e.kind, flags)
		b = binary.AppendUvarint(b, uint64(e.size))
		b = binary.AppendVarint(b, e.mtime)
		b = binary.AppendUvarint(b, e.ino)
		raw, _ := hex.DecodeString(string(e.hash))
		b = binary.AppendUvarint(b, uint64(len(raw)))
		b = append(b, raw...)
		b = binary.AppendUvarint(b, uint64(len(e.name)))
		b = append(b, e.name...)
		if e.inline {
			b = binary.AppendUvarint(b, uint64(len(e.data)))
			b = append(b, e.data...)
		}
	}
	return b
}

var errBadTree = errors.New("damaged directory record")

// decodeTree reads a tree object.
func decodeTree(b []byte) ([]entry, error) {
	if len(b) < len(treeMagic) {
		return nil, errBadTree
	}
	v2 := false
	switch string(b[:len(treeMagic)]) {
	case treeMagic:
	case treeMagicV2:
		v2 = true
	default:
		return nil, errBadTree
	}
	b = b[len(treeMagic):]
	var es []entry
	for len(b) > 0 {
		if len(b) < 2 {
			return nil, errBadTree
		}
		e := entry{kind: b[0], big: b[1]&flagBig != 0, inline: v2 && b[1]&flagInline != 0}
		b = b[2:]
		var n int
		var u uint64
		if u, n = binary.Uvarint(b); n <= 0 {
			return nil, errBadTree
		}
		e.size, b = int64(u), b[n:]
		if e.mtime, n = binary.Varint(b); n <= 0 {
			return nil, errBadTree
		}
		b = b[n:]
		if e.ino, n = binary.Uvarint(b); n <= 0 {
			return nil, errBadTree
		}
		b = b[n:]
		if u, n = binary.Uvarint(b); n <= 0 || u > uint64(len(b)-n) {
			return nil, errBadTree
		}
		e.hash, b = Hash(hex.EncodeToString(b[n:n+int(u)])), b[n+int(u):]
		if u, n = binary.Uvarint(b); n <= 0 || u > uint64(len(b)-n) {
			return nil, errBadTree
		}
		e.name, b = string(b[n:n+int(u)]), b[n+int(u):]
		if e.inline {
			if u, n = binary.Uvarint(b); n <= 0 || u > uint64(len(b)-n) {
				return nil, errBadTree
			}
			e.data, b = b[n:n+int(u):n+int(u)], b[n+int(u):]
			if hashOf(e.data) != e.hash {
				return nil, errBadTree
			}
		}
		es = append(es, e)
	}
	return es, nil
}

// readTree loads tree h; nil for "".
func (o *objects) readTree(h Hash) ([]entry, error) {
	if h == "" {
		return nil, nil
	}
	b, err := o.get(h)
	if err != nil {
		return nil, err
	}
	es, err := decodeTree(b)
	if err != nil {
		return nil, fmt.Errorf("read directory record %s: %w", h[:12], err)
	}
	return es, nil
}
