package warc

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"
)

func TestH1ProbeLoss(t *testing.T) {
	data, _ := os.ReadFile(filepath.Join(sharedDir(t), "corpus", "small.warc.gz"))
	ref := readAll(t, bytes.NewReader(data))
	rng := uint64(7)
	next := func(n int) int { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; return int(rng % uint64(n)) }
	lostS, lostU := 0, 0
	for trial := 0; trial < 200; trial++ {
		k := next(len(ref))
		pos := ref[k].offset + int64(next(int(ref[k].length)))
		bad := append([]byte(nil), data...)
		bad[pos] ^= byte(1 + next(255))
		lostS += len(ref) - len(readDamaged(bytes.NewReader(bad)).ids)
		lostU += len(ref) - len(readDamaged(struct{ io.Reader }{bytes.NewReader(bad)}).ids)
	}
	t.Logf("200 single-byte flips: records lost seekable %d, unseekable %d", lostS, lostU)
}
