package lang

import (
	"bufio"
	"bytes"
	"compress/gzip"
	_ "embed"
	"encoding/binary"
	"fmt"
	"io"
	"math/bits"
	"sync"
	"unicode/utf8"
)

// Orders above 4 add 0.1 point of accuracy for three times the size, so
// the shipped model stops at 4-grams.
//
//go:generate go run ./internal/genmodel -out model.bin.gz -max-order 4

// modelData is lingua-go's n-gram statistics, quantised, pruned and
// re-packed by internal/genmodel (see NOTICE for the licence of the data).
//
//go:embed model.bin.gz
var modelData []byte

const maxOrder = 5 // the file format's; the shipped model may stop lower

// model is an open-addressing hash table from n-gram to the list of
// (language, quantised -log p) pairs, one table for all orders. A slot packs
// a 32-bit fingerprint of the n-gram with a pointer into entries: a false
// match needs two different n-grams to share the probe and the fingerprint,
// about one lookup in a billion, and would only nudge one score, while the
// halved table keeps the model small.
type model struct {
	order   int      // highest n-gram order present
	slots   []uint64 // fingerprint<<32 | start<<7 | count; 0 = empty
	entries []uint16 // lang<<8 | q, q = round(-12 ln p)
}

var (
	loadOnce sync.Once
	theModel *model
	loadErr  error
)

// Load reads the embedded model now instead of on the first Detect (about a
// second). A pipeline calls it in the background at start, so the load
// overlaps the first documents' extraction.
func Load() error {
	_, err := getModel()
	return err
}

func getModel() (*model, error) {
	loadOnce.Do(func() {
		theModel, loadErr = parseModel(modelData)
	})
	return theModel, loadErr
}

func parseModel(gz []byte) (*model, error) {
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return nil, fmt.Errorf("lang: model: %w", err)
	}
	md, err := readModel(bufio.NewReaderSize(zr, 1<<16))
	if err != nil {
		return nil, fmt.Errorf("lang: model: %w", err)
	}
	return md, nil
}

func readModel(r *bufio.Reader) (*model, error) {
	const magic = "CCLM2\n"
	var hdr [len(magic) + 1]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil || string(hdr[:len(magic)]) != magic {
		return nil, fmt.Errorf("bad header")
	}
	if int(hdr[len(magic)]) != len(languages) {
		return nil, fmt.Errorf("model has %d languages, table has %d", hdr[len(magic)], len(languages))
	}
	var buf [256]byte
	readStr := func() ([]byte, error) {
		l, err := r.ReadByte()
		if err != nil {
			return nil, err
		}
		_, err = io.ReadFull(r, buf[:l])
		return buf[:l], err
	}
	for i := range languages {
		s, err := readStr()
		if err != nil {
			return nil, err
		}
		if string(s) != languages[i].iso1 {
			return nil, fmt.Errorf("language %d is %q, table says %q", i, s, languages[i].iso1)
		}
	}
	var n [8]byte
	if _, err := io.ReadFull(r, n[:]); err != nil {
		return nil, err
	}
	nk, ne := int(binary.LittleEndian.Uint32(n[:4])), int(binary.LittleEndian.Uint32(n[4:]))
	if ne >= 1<<25 {
		return nil, fmt.Errorf("%d entries overflow the slot layout", ne)
	}
	md := &model{
		slots:   make([]uint64, nk+nk/3+1), // load factor 0.75
		entries: make([]uint16, 0, ne),
	}
	var runes [maxOrder]rune
	var pairs [2 * 256]byte
	for o := 1; o <= maxOrder; o++ {
		if _, err := io.ReadFull(r, n[:4]); err != nil {
			return nil, err
		}
		c := int(binary.LittleEndian.Uint32(n[:4]))
		if c > 0 {
			md.order = o
		}
		for i := 0; i < c; i++ {
			s, err := readStr()
			if err != nil {
				return nil, err
			}
			k := 0
			for len(s) > 0 && k < maxOrder {
				r, sz := utf8.DecodeRune(s)
				runes[k] = r
				k++
				s = s[sz:]
			}
			m, err := r.ReadByte()
			if err != nil {
				return nil, err
			}
			if int(m) > len(languages) {
				return nil, fmt.Errorf("n-gram %d of order %d lists %d languages", i, o, m)
			}
			if _, err := io.ReadFull(r, pairs[:2*int(m)]); err != nil {
				return nil, err
			}
			start := len(md.entries)
			if start+int(m) > ne {
				return nil, fmt.Errorf("more entries than the header's %d", ne)
			}
			for j := 0; j < int(m); j++ {
				md.entries = append(md.entries, uint16(pairs[2*j])<<8|uint16(pairs[2*j+1]))
			}
			md.insert(hashRunes(runes[:k]), uint64(start)<<7|uint64(m))
		}
	}
	return md, nil
}

// hashRunes is FNV-1a over runes with a final avalanche; the length is mixed
// in so n-grams of different orders are different keys.
func hashRunes(rs []rune) uint64 {
	h := uint64(14695981039346656037) ^ uint64(len(rs))
	for _, r := range rs {
		h ^= uint64(r)
		h *= 1099511628211
	}
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	return h
}

// home maps a hash to a slot without a power-of-two table (Lemire's
// multiply-shift), and fingerprint takes other bits, never zero.
func (m *model) home(h uint64) int {
	hi, _ := bits.Mul64(h, uint64(len(m.slots)))
	return int(hi)
}

func fingerprint(h uint64) uint64 { return (h & 0xffffffff) | 1 }

func (m *model) insert(h uint64, v uint64) {
	fp := fingerprint(h) << 32
	for i := m.home(h); ; i++ {
		if i == len(m.slots) {
			i = 0
		}
		if m.slots[i] == 0 {
			m.slots[i] = fp | v
			return
		}
	}
}

func (m *model) lookup(h uint64) []uint16 {
	fp := fingerprint(h)
	for i := m.home(h); ; i++ {
		if i == len(m.slots) {
			i = 0
		}
		s := m.slots[i]
		if s == 0 {
			return nil
		}
		if s>>32 == fp {
			start, cnt := (s&0xffffffff)>>7, s&0x7f
			return m.entries[start : start+cnt]
		}
	}
}
