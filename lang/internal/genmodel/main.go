// Command genmodel converts lingua-go's character n-gram models (shipped as
// protobuf-in-zip data inside the github.com/pemistahl/lingua-go module)
// into the compact, quantised model file that package lang embeds.
//
// It runs only at development time (go generate in package lang); the
// shipped binary neither imports lingua-go nor reads its files. The
// protobuf is decoded by hand because the schema is four fields and a
// protobuf dependency for that would outweigh the code.
//
// Usage: go run ./internal/genmodel -lingua DIR -out model.bin.gz
package main

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

const linguaModule = "github.com/pemistahl/lingua-go@v1.4.0"

// backoffPenalty must match package lang's: pruning keeps only the n-grams
// whose probability the scorer's backoff would get wrong by more than -prune.
const backoffPenalty = 1.0

var orderNames = []string{"unigrams", "bigrams", "trigrams", "quadrigrams", "fivegrams"}

func main() {
	dir := flag.String("lingua", "", "lingua-go module directory (default: go mod download "+linguaModule+")")
	out := flag.String("out", "model.bin.gz", "output file")
	maxOrder := flag.Int("max-order", 5, "highest n-gram order to keep")
	prune := flag.Float64("prune", 0, "drop 4/5-grams whose log probability is within this many nats of the backed-off (n-1)-gram estimate")
	flag.Parse()
	if err := run(*dir, *out, *maxOrder, *prune); err != nil {
		fmt.Fprintln(os.Stderr, "genmodel:", err)
		os.Exit(1)
	}
}

type entry struct {
	lang uint8
	q    uint8
}

func run(dir, out string, maxOrder int, prune float64) error {
	if dir == "" {
		d, err := moduleDir()
		if err != nil {
			return err
		}
		dir = d
	}
	langDirs, err := filepath.Glob(filepath.Join(dir, "language-models", "*"))
	if err != nil || len(langDirs) == 0 {
		return fmt.Errorf("no language models under %s/language-models", dir)
	}
	sort.Strings(langDirs)
	var codes []string
	for _, d := range langDirs {
		codes = append(codes, filepath.Base(d))
	}
	var head, buf bytes.Buffer
	head.WriteString("CCLM2\n")
	head.WriteByte(byte(len(codes)))
	for _, c := range codes {
		head.WriteByte(byte(len(c)))
		head.WriteString(c)
	}
	totalKeys, totalEntries := 0, 0
	// logp[order][lang] is kept for pruning higher orders against lower ones.
	lower := make([]map[string]float64, len(codes))
	for o := 1; o <= 5; o++ {
		table := map[string][]entry{}
		cur := make([]map[string]float64, len(codes))
		for li, d := range langDirs {
			probs, err := readModel(filepath.Join(d, orderNames[o-1]+".pb.bin.zip"))
			if err != nil {
				return err
			}
			cur[li] = probs
			for ng, p := range probs {
				lp := math.Log(p)
				if o >= 4 && prune > 0 && lower[li] != nil {
					// Backed-off estimate: the (n-1)-gram suffix's
					// conditional probability, as the scorer uses it.
					r := []rune(ng)
					if bp, ok := lower[li][string(r[1:])]; ok && math.Abs(lp-(math.Log(bp)-backoffPenalty)) < prune {
						continue
					}
				}
				table[ng] = append(table[ng], entry{uint8(li), quant(lp)})
			}
		}
		lower = cur
		if o > maxOrder {
			table = nil
		}
		keys := make([]string, 0, len(table))
		for k := range table {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var n [4]byte
		binary.LittleEndian.PutUint32(n[:], uint32(len(keys)))
		buf.Write(n[:])
		total := 0
		for _, k := range keys {
			es := table[k]
			sort.Slice(es, func(i, j int) bool { return es[i].lang < es[j].lang })
			buf.WriteByte(byte(len(k)))
			buf.WriteString(k)
			buf.WriteByte(byte(len(es)))
			for _, e := range es {
				buf.WriteByte(e.lang)
				buf.WriteByte(e.q)
			}
			total += len(es)
		}
		totalKeys += len(keys)
		totalEntries += total
		fmt.Fprintf(os.Stderr, "order %d: %d n-grams, %d entries\n", o, len(keys), total)
	}
	f, err := os.Create(out)
	if err != nil {
		return fmt.Errorf("create %s: %w", out, err)
	}
	// Totals first so the loader can size its arrays and stream the rest.
	var n [8]byte
	binary.LittleEndian.PutUint32(n[:4], uint32(totalKeys))
	binary.LittleEndian.PutUint32(n[4:], uint32(totalEntries))
	head.Write(n[:])
	zw, _ := gzip.NewWriterLevel(f, gzip.BestCompression)
	if _, err := zw.Write(append(head.Bytes(), buf.Bytes()...)); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", out, err)
	}
	if err := zw.Close(); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", out, err)
	}
	return f.Close()
}

// quant maps a natural-log probability to a byte in steps of 1/12 nat,
// enough resolution that quantisation changes no measured decision.
func quant(lp float64) uint8 {
	q := math.Round(-lp * 12)
	if q > 255 {
		q = 255
	}
	if q < 0 {
		q = 0
	}
	return uint8(q)
}

func moduleDir() (string, error) {
	out, err := exec.Command("go", "mod", "download", "-json", linguaModule).Output()
	if err != nil {
		return "", fmt.Errorf("go mod download %s: %w", linguaModule, err)
	}
	var m struct{ Dir string }
	if err := json.Unmarshal(out, &m); err != nil || m.Dir == "" {
		return "", fmt.Errorf("go mod download %s: no module directory in output", linguaModule)
	}
	return m.Dir, nil
}

// readModel returns n-gram -> probability from one lingua model file; a
// missing file (lingua ships only unigrams for zh, ja, ko) is an empty model.
func readModel(path string) (map[string]float64, error) {
	zr, err := zip.OpenReader(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	defer zr.Close()
	if len(zr.File) == 0 {
		return nil, fmt.Errorf("%s: empty zip", path)
	}
	rc, err := zr.File[0].Open()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	b, err := io.ReadAll(rc)
	rc.Close()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	probs := map[string]float64{}
	if err := decode(b, probs); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return probs, nil
}

var errTrunc = errors.New("truncated protobuf")

func varint(b []byte) (uint64, int, error) {
	var x uint64
	for i := 0; i < len(b) && i < 10; i++ {
		x |= uint64(b[i]&0x7f) << (7 * i)
		if b[i] < 0x80 {
			return x, i + 1, nil
		}
	}
	return 0, 0, errTrunc
}

// decode walks SerializableLanguageModel: field 4 holds ngram sets, each
// with a double probability (field 1) and repeated string n-grams (field 2).
func decode(b []byte, probs map[string]float64) error {
	for len(b) > 0 {
		tag, n, err := varint(b)
		if err != nil {
			return err
		}
		b = b[n:]
		switch tag & 7 {
		case 0:
			_, n, err = varint(b)
			if err != nil {
				return err
			}
			b = b[n:]
		case 2:
			l, n, err := varint(b)
			if err != nil || uint64(len(b)-n) < l {
				return errTrunc
			}
			sub := b[n : n+int(l)]
			b = b[n+int(l):]
			if tag>>3 == 4 {
				if err := decodeSet(sub, probs); err != nil {
					return err
				}
			}
		default:
			return fmt.Errorf("unexpected wire type %d", tag&7)
		}
	}
	return nil
}

func decodeSet(b []byte, probs map[string]float64) error {
	var p float64
	var ngrams []string
	for len(b) > 0 {
		tag, n, err := varint(b)
		if err != nil {
			return err
		}
		b = b[n:]
		switch {
		case tag&7 == 1:
			if len(b) < 8 {
				return errTrunc
			}
			p = math.Float64frombits(binary.LittleEndian.Uint64(b))
			b = b[8:]
		case tag&7 == 2:
			l, n, err := varint(b)
			if err != nil || uint64(len(b)-n) < l {
				return errTrunc
			}
			ngrams = append(ngrams, strings.Clone(string(b[n:n+int(l)])))
			b = b[n+int(l):]
		default:
			return fmt.Errorf("unexpected wire type %d in ngram set", tag&7)
		}
	}
	for _, g := range ngrams {
		probs[g] = p
	}
	return nil
}
