package dedup

import (
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/open-markdown/ccrawl/simhash"
	"github.com/parquet-go/parquet-go"
)

// ErrNoInput reports that the arguments named no Parquet file or no row.
var ErrNoInput = errors.New("no input")

// Files expands paths into the Parquet files to read: a file is taken as
// given (whatever its name, so a mistaken argument fails loudly), a directory
// is walked recursively for *.parquet in lexical order. Duplicates are
// dropped, keeping the first position.
func Files(paths []string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	add := func(p string) {
		if abs, err := filepath.Abs(p); err == nil && !seen[abs] {
			seen[abs] = true
			out = append(out, p)
		}
	}
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, fmt.Errorf("dedup: %w", err)
		}
		if !st.IsDir() {
			add(p)
			continue
		}
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && strings.HasSuffix(d.Name(), ".parquet") {
				add(path)
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("dedup: walking %s: %w", p, err)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("dedup: %w: no .parquet files under %s", ErrNoInput, strings.Join(paths, ", "))
	}
	return out, nil
}

// rows is the per-row state of a read, columns as parallel slices so that
// memory stays linear and small: no Markdown is kept, only its hash.
type rows struct {
	id       []string // doc_id, or url when the file has no doc_id
	url      []string // "" for files without a url column
	hash     []hash128
	fp       []uint64
	size     []int64 // Markdown bytes
	computed int     // rows fingerprinted here because the file had no simhash
}

type hash128 [2]uint64

func (r *rows) append(o *rows) {
	r.id = append(r.id, o.id...)
	r.url = append(r.url, o.url...)
	r.hash = append(r.hash, o.hash...)
	r.fp = append(r.fp, o.fp...)
	r.size = append(r.size, o.size...)
	r.computed += o.computed
}

// columns are the leaf indexes of the columns a read projects; -1 = absent.
type columns struct {
	id, url, markdown, simhash int
}

// readAll reads the projected columns of every file on at most workers
// goroutines, one file each (so open descriptors stay bounded however many
// shards a directory holds), and concatenates them in file order. When
// there are fewer files than workers, each row group's Markdown column is
// read in page-aligned slices in parallel instead.
func readAll(ctx context.Context, files []string, workers int) (*rows, error) {
	seeds := [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}
	split := max(1, workers/len(files))
	parts := make([]*rows, len(files))
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	work := make(chan int)
	var (
		wg       sync.WaitGroup
		errOnce  sync.Once
		firstErr error
	)
	for range max(1, min(workers, len(files))) {
		wg.Go(func() {
			for i := range work {
				r, err := readFile(ctx, files[i], seeds, split)
				if err != nil {
					errOnce.Do(func() { firstErr = err; cancel() })
					continue
				}
				parts[i] = r
			}
		})
	}
	for i := range files {
		if ctx.Err() != nil {
			break
		}
		work <- i
	}
	close(work)
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(parts) == 1 {
		return parts[0], nil
	}
	all := &rows{}
	for _, r := range parts {
		all.append(r)
	}
	return all, nil
}

func readFile(ctx context.Context, name string, seeds [2]maphash.Seed, split int) (*rows, error) {
	f, pf, cols, err := openFile(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	all := &rows{}
	for k, rg := range pf.RowGroups() {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		var r *rows
		err := guard(func() (err error) {
			r, err = readRowGroup(rg, cols, seeds, split)
			return err
		})
		if err != nil {
			return nil, fmt.Errorf("dedup: %s: row group %d: %w", name, k, err)
		}
		if len(pf.RowGroups()) == 1 {
			return r, nil
		}
		all.append(r)
	}
	return all, nil
}

// openFile opens one Parquet file and finds its columns by name, so any
// schema with markdown and doc_id or url works, whatever else it holds.
func openFile(name string) (*os.File, *parquet.File, columns, error) {
	cols := columns{-1, -1, -1, -1}
	f, err := os.Open(name)
	if err != nil {
		return nil, nil, cols, fmt.Errorf("dedup: %w", err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, cols, fmt.Errorf("dedup: %w", err)
	}
	pf, err := safeOpen(f, st.Size())
	if err != nil {
		f.Close()
		return nil, nil, cols, fmt.Errorf("dedup: %s is not a readable Parquet file (%v); pass the .parquet files of an export or their directory", name, err)
	}
	schema := pf.Schema()
	find := func(col string, kind parquet.Kind) (int, error) {
		leaf, ok := schema.Lookup(col)
		if !ok {
			return -1, nil
		}
		if leaf.MaxRepetitionLevel > 0 || leaf.Node.Type().Kind() != kind {
			return -1, fmt.Errorf("dedup: %s: column %s is %s, want a flat %s column", name, col, leaf.Node.Type(), kind)
		}
		return leaf.ColumnIndex, nil
	}
	for _, c := range []struct {
		name string
		kind parquet.Kind
		dst  *int
	}{
		{"doc_id", parquet.ByteArray, &cols.id},
		{"url", parquet.ByteArray, &cols.url},
		{"markdown", parquet.ByteArray, &cols.markdown},
		{"simhash", parquet.Int64, &cols.simhash},
	} {
		if *c.dst, err = find(c.name, c.kind); err != nil {
			f.Close()
			return nil, nil, cols, err
		}
	}
	if cols.markdown < 0 || cols.id < 0 && cols.url < 0 {
		f.Close()
		return nil, nil, cols, fmt.Errorf("dedup: %s has no markdown and doc_id/url columns; is it a ccrawl dataset?", name)
	}
	return f, pf, cols, nil
}

// guard runs fn and turns a panic inside the Parquet decoder, which corrupt
// pages can provoke, into an error instead of a crash.
func guard(fn func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("corrupt Parquet data: %v", p)
		}
	}()
	return fn()
}

func safeOpen(f *os.File, size int64) (pf *parquet.File, err error) {
	defer func() {
		if p := recover(); p != nil {
			pf, err = nil, fmt.Errorf("corrupt footer: %v", p)
		}
	}()
	return parquet.OpenFile(f, size, parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
}

func readRowGroup(rg parquet.RowGroup, cols columns, seeds [2]maphash.Seed, split int) (*rows, error) {
	n := int(rg.NumRows())
	chunks := rg.ColumnChunks()
	// The row count comes from the footer and is not trusted: arrays are
	// sized by it only after the id column has really yielded n values.
	r := &rows{}
	if err := readIDs(chunks, cols, n, r); err != nil {
		return nil, err
	}
	r.fp = make([]uint64, 0, n)
	// needPrint[i]: row i has no stored simhash (no column, or null) and is
	// fingerprinted from its Markdown below.
	var needPrint []bool
	if cols.simhash >= 0 {
		if err := readColumn(chunks[cols.simhash], func(v parquet.Value) {
			if v.IsNull() && len(r.fp) < n {
				if needPrint == nil {
					needPrint = make([]bool, n)
				}
				needPrint[len(r.fp)] = true
			}
			r.fp = append(r.fp, uint64(v.Int64()))
		}); err != nil {
			return nil, fmt.Errorf("reading simhash: %w", err)
		}
		if len(r.fp) != n {
			return nil, fmt.Errorf("simhash column holds %d values for %d rows", len(r.fp), n)
		}
	} else {
		r.fp = r.fp[:n]
		needPrint = make([]bool, n)
		for i := range needPrint {
			needPrint[i] = true
		}
	}
	r.hash = make([]hash128, n)
	r.size = make([]int64, n)

	// The Markdown column is most of the bytes and nearly all of the time
	// (zstd): split it into page-aligned row ranges read concurrently.
	ranges := markdownRanges(chunks[cols.markdown], n, split)
	var wg sync.WaitGroup
	errs := make([]error, len(ranges))
	computed := make([]int, len(ranges))
	for k, rg := range ranges {
		wg.Go(func() {
			errs[k] = guard(func() (err error) {
				computed[k], err = readMarkdown(chunks[cols.markdown], rg[0], rg[1], r, needPrint, seeds)
				return err
			})
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	for _, c := range computed {
		r.computed += c
	}
	return r, nil
}

// markdownRanges cuts [0, n) into at most split row ranges at page starts,
// using the column's offset index; without one it is a single range.
func markdownRanges(chunk parquet.ColumnChunk, n, split int) [][2]int {
	whole := [][2]int{{0, n}}
	if split < 2 {
		return whole
	}
	oi, err := chunk.OffsetIndex()
	if err != nil || oi == nil || oi.NumPages() < 2 {
		return whole
	}
	var out [][2]int
	start, pages := 0, oi.NumPages()
	for k := 1; k < split; k++ {
		cut := int(oi.FirstRowIndex(k * pages / split))
		if cut > start && cut < n {
			out = append(out, [2]int{start, cut})
			start = cut
		}
	}
	return append(out, [2]int{start, n})
}

// readMarkdown hashes the Markdown of rows [from, to) into r and
// fingerprints those that need it; it returns how many it fingerprinted.
func readMarkdown(chunk parquet.ColumnChunk, from, to int, r *rows, needPrint []bool, seeds [2]maphash.Seed) (int, error) {
	pages := chunk.Pages()
	defer pages.Close()
	if from > 0 {
		if err := pages.SeekToRow(int64(from)); err != nil {
			return 0, fmt.Errorf("reading markdown: seeking to row %d: %w", from, err)
		}
	}
	row, computed := from, 0
	buf := make([]parquet.Value, 256)
	for row < to {
		p, err := pages.ReadPage()
		if err == io.EOF {
			break
		}
		if err != nil {
			return 0, fmt.Errorf("reading markdown: %w", err)
		}
		vr := p.Values()
		for row < to {
			k, err := vr.ReadValues(buf[:min(len(buf), to-row)])
			for _, v := range buf[:k] {
				md := v.ByteArray()
				r.size[row] = int64(len(md))
				r.hash[row] = hash128{maphash.Bytes(seeds[0], md), maphash.Bytes(seeds[1], md)}
				if needPrint != nil && needPrint[row] {
					r.fp[row] = simhash.Fingerprint(string(md))
					computed++
				}
				row++
			}
			if err == io.EOF {
				break
			}
			if err != nil {
				parquet.Release(p)
				return 0, fmt.Errorf("reading markdown: %w", err)
			}
		}
		parquet.Release(p)
	}
	if row != to {
		return 0, fmt.Errorf("markdown column ends at row %d of %d", row, to)
	}
	return computed, nil
}

// readIDs fills r.id (doc_id, else url) and r.url (url, else "").
func readIDs(chunks []parquet.ColumnChunk, cols columns, n int, r *rows) error {
	idCol := cols.id
	if idCol < 0 {
		idCol = cols.url
	}
	r.id = make([]string, 0, min(n, 1<<16))
	if err := readColumn(chunks[idCol], func(v parquet.Value) {
		r.id = append(r.id, string(v.ByteArray()))
	}); err != nil {
		return fmt.Errorf("reading doc_id: %w", err)
	}
	switch {
	case len(r.id) != n:
		return fmt.Errorf("id column holds %d values for %d rows", len(r.id), n)
	case cols.id >= 0 && cols.url >= 0:
		r.url = make([]string, 0, n)
		if err := readColumn(chunks[cols.url], func(v parquet.Value) {
			r.url = append(r.url, string(v.ByteArray()))
		}); err != nil {
			return fmt.Errorf("reading url: %w", err)
		}
	case cols.id < 0:
		r.url = r.id
	default:
		// Keep url aligned with the other files' rows.
		r.url = make([]string, n)
	}
	if len(r.id) != n || len(r.url) != n {
		return fmt.Errorf("id columns hold %d/%d values for %d rows", len(r.id), len(r.url), n)
	}
	return nil
}

// readColumn streams the values of one column chunk page by page; fn must
// not keep the value's bytes, which belong to the page buffer.
func readColumn(chunk parquet.ColumnChunk, fn func(parquet.Value)) error {
	pages := chunk.Pages()
	defer pages.Close()
	buf := make([]parquet.Value, 512)
	for {
		p, err := pages.ReadPage()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		vr := p.Values()
		for {
			n, err := vr.ReadValues(buf)
			for _, v := range buf[:n] {
				fn(v)
			}
			if err == io.EOF {
				break
			}
			if err != nil {
				parquet.Release(p)
				return err
			}
		}
		parquet.Release(p)
	}
}
