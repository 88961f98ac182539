package dedup

import (
	"bufio"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"html"
	"io"
	"math/bits"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/open-markdown/ccrawl/dataset"

	"github.com/open-markdown/ccrawl/simhash"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
)

// exportRow is the open-markdown-v3 export schema, as the exporter writes it.
type exportRow = dataset.Row

// oldRow is the export schema before the simhash column existed.
type oldRow struct {
	DocID          string `parquet:"doc_id"`
	URL            string `parquet:"url"`
	Host           string `parquet:"host"`
	MarkdownLength int64  `parquet:"markdown_length"`
	Markdown       string `parquet:"markdown"`
	Language       string `parquet:"language"`
}

// refetchRow is the export schema plus refetch columns; failed fetches have
// empty markdown. Columns are in a different order on purpose.
type refetchRow struct {
	FetchStatus int32   `parquet:"fetch_status"`
	Markdown    string  `parquet:"markdown"`
	FetchError  string  `parquet:"fetch_error"`
	DocID       string  `parquet:"doc_id"`
	URL         string  `parquet:"url"`
	Simhash     uint64  `parquet:"simhash"`
	FetchedAt   int64   `parquet:"fetched_at"`
	Similarity  float64 `parquet:"similarity"`
}

type doc struct{ id, url, md string }

func writeParquet[T any](t testing.TB, path string, rows []T) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	// Small row groups so that reading spans several parallel units.
	w := parquet.NewGenericWriter[T](f, parquet.Compression(&parquet.Zstd), parquet.MaxRowsPerRowGroup(37))
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

func asExport(docs []doc) []exportRow {
	out := make([]exportRow, len(docs))
	for i, d := range docs {
		out[i] = exportRow{DocID: d.id, URL: d.url, Host: "h", Markdown: d.md, MarkdownLength: int64(len(d.md)), Extractor: "test", Simhash: simhash.Fingerprint(d.md)}
	}
	return out
}

func asOld(docs []doc) []oldRow {
	out := make([]oldRow, len(docs))
	for i, d := range docs {
		out[i] = oldRow{DocID: d.id, URL: d.url, Markdown: d.md, MarkdownLength: int64(len(d.md))}
	}
	return out
}

func asRefetch(docs []doc) []refetchRow {
	out := make([]refetchRow, len(docs))
	for i, d := range docs {
		out[i] = refetchRow{DocID: d.id, URL: d.url, Markdown: d.md, Simhash: simhash.Fingerprint(d.md), FetchStatus: 200}
		if d.md == "" {
			out[i].FetchStatus, out[i].FetchError = 0, "timeout"
		}
	}
	return out
}

// corpusDocs builds a dataset from the real pages of the shared corpus:
// every page once, plus planted exact copies (long and short), near copies
// (one word edited, a line appended), failed rows and punctuation-only rows.
func corpusDocs(t testing.TB) []doc {
	texts := corpusTexts(t)
	var docs []doc
	add := func(md string) {
		n := len(docs)
		docs = append(docs, doc{id: "d" + strconv.Itoa(n), url: "https://example.com/p/" + strconv.Itoa(n), md: md})
	}
	for i, s := range texts {
		add(s)
		switch i % 9 {
		case 1:
			add(s) // exact copy
		case 2:
			add(strings.Replace(s, " ", "  ", 1)) // one byte differs: near, not exact
		case 3:
			words := strings.Fields(s)
			if len(words) > 50 {
				words[len(words)/2] = "zzyzx"
			}
			add(strings.Join(words, " "))
		case 4:
			add(s + "\n\nLast updated 2025-10-18.")
		case 5:
			add("") // failed refetch
		case 6:
			short := "Short page " + strconv.Itoa(i%3) + ": coming soon."
			add(short)
			add(short) // short exact copies still cluster
		case 7:
			add("--- *** ---")
		}
	}
	return docs
}

// expectation computes the report's answer the slow, obvious way: exact
// groups by string equality, near edges by a pairwise scan.
type expectation struct {
	exactRows, exactClusters, nearRows, nearClusters, noFP int
	redundant                                              []string
}

func expect(docs []doc, d int) expectation {
	var e expectation
	n := len(docs)
	uf := newUnionFind(n)
	firstOf := map[string]int{}
	exactDup := make([]bool, n)
	fps := make([]uint64, n)
	clusters := map[int]bool{}
	for i, dc := range docs {
		fps[i] = simhash.Fingerprint(dc.md)
		if dc.md == "" || fps[i] == 0 {
			e.noFP++
			continue
		}
		if j, ok := firstOf[dc.md]; ok {
			uf.union(int32(j), int32(i))
			exactDup[i] = true
			e.exactRows++
			clusters[j] = true
			continue
		}
		firstOf[dc.md] = i
	}
	e.exactClusters = len(clusters)
	for i := range docs {
		for j := i + 1; j < n; j++ {
			if exactDup[i] || exactDup[j] || fps[i] == 0 || fps[j] == 0 || len(docs[i].md) < MinNearBytes || len(docs[j].md) < MinNearBytes {
				continue
			}
			if bits.OnesCount64(fps[i]^fps[j]) <= d {
				uf.union(int32(i), int32(j))
			}
		}
	}
	nearRoots := map[int32]bool{}
	for i := range docs {
		r := uf.find(int32(i))
		if int(r) == i {
			continue
		}
		e.redundant = append(e.redundant, docs[i].id)
		if !exactDup[i] {
			e.nearRows++
			nearRoots[r] = true
		}
	}
	e.nearClusters = len(nearRoots)
	return e
}

func check(t *testing.T, rep *Report, e expectation) {
	t.Helper()
	if rep.Exact.Rows != e.exactRows || rep.Exact.Clusters != e.exactClusters {
		t.Errorf("exact = %d rows in %d clusters, want %d in %d", rep.Exact.Rows, rep.Exact.Clusters, e.exactRows, e.exactClusters)
	}
	if rep.Near.Rows != e.nearRows || rep.Near.Clusters != e.nearClusters {
		t.Errorf("near = %d rows in %d clusters, want %d in %d", rep.Near.Rows, rep.Near.Clusters, e.nearRows, e.nearClusters)
	}
	if rep.NoFingerprint != e.noFP {
		t.Errorf("no fingerprint = %d, want %d", rep.NoFingerprint, e.noFP)
	}
	if !slices.Equal(rep.RedundantIDs(), e.redundant) {
		t.Errorf("redundant ids differ:\n got %v\nwant %v", rep.RedundantIDs(), e.redundant)
	}
	if rep.Redundant != len(e.redundant) {
		t.Errorf("redundant = %d, want %d", rep.Redundant, len(e.redundant))
	}
}

func TestRunMatchesBruteForce(t *testing.T) {
	docs := corpusDocs(t)
	dir := t.TempDir()
	// Three schemas, three files, one of them in a subdirectory.
	a, b, c := docs[:len(docs)/3], docs[len(docs)/3:2*len(docs)/3], docs[2*len(docs)/3:]
	writeParquet(t, filepath.Join(dir, "a.parquet"), asExport(a))
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeParquet(t, filepath.Join(dir, "sub", "b.parquet"), asOld(b))
	writeParquet(t, filepath.Join(dir, "c.parquet"), asRefetch(c))
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("not parquet, not walked"), 0o644); err != nil {
		t.Fatal(err)
	}
	// File order: explicit files in argument order, then the directory walk.
	ordered := slices.Concat(c, a, b)
	for _, d := range []int{0, 3, 10} {
		rep, err := Run(context.Background(), []string{filepath.Join(dir, "c.parquet"), dir}, Options{Distance: d, Top: 5, Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Files != 3 || rep.Rows != len(docs) {
			t.Fatalf("read %d rows in %d files, want %d in 3", rep.Rows, rep.Files, len(docs))
		}
		if rep.Fingerprinted != len(b) {
			t.Errorf("fingerprinted %d rows on the fly, want %d (the file without simhash)", rep.Fingerprinted, len(b))
		}
		e := expect(ordered, d)
		if d == 3 && (e.exactRows == 0 || e.nearRows == 0) {
			t.Fatalf("fixture has %d exact and %d near duplicates; want both", e.exactRows, e.nearRows)
		}
		t.Run("distance="+strconv.Itoa(d), func(t *testing.T) { check(t, rep, e) })
	}
}

// A file without the simhash column gives the same report as one with it.
func TestMissingSimhashSameReport(t *testing.T) {
	docs := corpusDocs(t)
	dir := t.TempDir()
	with, without := filepath.Join(dir, "with.parquet"), filepath.Join(dir, "without.parquet")
	writeParquet(t, with, asExport(docs))
	writeParquet(t, without, asOld(docs))
	run := func(p string) *Report {
		rep, err := Run(context.Background(), []string{p}, Options{Distance: 3, Top: 10})
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	r1, r2 := run(with), run(without)
	if r1.Fingerprinted != 0 || r2.Fingerprinted != len(docs) {
		t.Fatalf("fingerprinted %d and %d rows, want 0 and %d", r1.Fingerprinted, r2.Fingerprinted, len(docs))
	}
	r2.Fingerprinted = 0
	j1, _ := json.Marshal(r1)
	j2, _ := json.Marshal(r2)
	if string(j1) != string(j2) {
		t.Errorf("reports differ:\n%s\n%s", j1, j2)
	}
	if !slices.Equal(r1.RedundantIDs(), r2.RedundantIDs()) {
		t.Error("redundant ids differ")
	}
	check(t, r1, expect(docs, 3))
}

func TestSimhashColumnIsUnsigned64(t *testing.T) {
	p := filepath.Join(t.TempDir(), "x.parquet")
	writeParquet(t, p, asExport([]doc{{"a", "u", "some words here"}}))
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, _ := f.Stat()
	pf, err := parquet.OpenFile(f, st.Size())
	if err != nil {
		t.Fatal(err)
	}
	leaf, _ := pf.Schema().Lookup("simhash")
	lt := leaf.Node.Type().LogicalType()
	var it *format.IntType
	if lt != nil {
		it, _ = lt.Value.(*format.IntType)
	}
	if leaf.Node.Type().Kind() != parquet.Int64 || it == nil || it.IsSigned || it.BitWidth != 64 {
		t.Fatalf("fixture simhash column is %v, want INT64 with unsigned 64-bit logical type", leaf.Node.Type())
	}
}

func TestWriteIDs(t *testing.T) {
	dir := t.TempDir()
	ids := []string{"d3", "d7", "https://x.example/a?b=c"}
	txt := filepath.Join(dir, "r.txt")
	if err := WriteIDs(txt, ids); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(txt)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n"); !slices.Equal(got, ids) {
		t.Errorf("txt = %q, want %q", got, ids)
	}
	pq := filepath.Join(dir, "r.parquet")
	if err := WriteIDs(pq, ids); err != nil {
		t.Fatal(err)
	}
	type row struct {
		DocID string `parquet:"doc_id"`
	}
	got, err := parquet.ReadFile[row](pq)
	if err != nil {
		t.Fatal(err)
	}
	var back []string
	for _, r := range got {
		back = append(back, r.DocID)
	}
	if !slices.Equal(back, ids) {
		t.Errorf("parquet = %q, want %q", back, ids)
	}
	if err := WriteIDs(filepath.Join(dir, "missing", "r.txt"), ids); err == nil {
		t.Error("writing into a missing directory succeeded")
	}
}

func TestRunErrors(t *testing.T) {
	dir := t.TempDir()
	notPQ := filepath.Join(dir, "bad.parquet")
	if err := os.WriteFile(notPQ, []byte("WARC/1.0\r\nnot parquet at all\r\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(dir, "empty.parquet")
	writeParquet(t, empty, []exportRow{})
	noMD := filepath.Join(dir, "nomd.parquet")
	writeParquet(t, noMD, []struct {
		DocID string `parquet:"doc_id"`
	}{{"x"}})
	emptyDir := t.TempDir()
	tests := []struct {
		name  string
		paths []string
		want  string
		is    error
	}{
		{"not parquet", []string{notPQ}, "not a readable Parquet file", nil},
		{"no rows", []string{empty}, "hold no rows", ErrNoInput},
		{"no parquet in dir", []string{emptyDir}, "no .parquet files", ErrNoInput},
		{"missing path", []string{filepath.Join(dir, "nope")}, "no such file", nil},
		{"no markdown column", []string{noMD}, "no markdown", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Run(context.Background(), tt.paths, Options{Distance: 3})
			if err == nil || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("err = %v, want one line containing %q", err, tt.want)
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("err = %v, want errors.Is %v", err, tt.is)
			}
		})
	}
	if _, err := Run(context.Background(), []string{empty}, Options{Distance: 65}); err == nil {
		t.Error("distance 65 accepted")
	}
}

func TestTextReport(t *testing.T) {
	rep := &Report{Files: 1, Rows: 20861, Distance: 3,
		Exact: Tally{Rows: 165, Clusters: 113, Bytes: 139700}, Near: Tally{Rows: 24, Clusters: 23, Bytes: 171000},
		Redundant: 189, NoFingerprint: 2}
	var b strings.Builder
	if err := rep.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	want := `20,861 rows in 1 files
  exact duplicates          165 in 113 clusters, 139.7 kB
  near duplicates            24 in 23 clusters, 171.0 kB  (distance <= 3)
  redundant                 189  (0.9% of rows)
  no fingerprint              2  (too short to hash, left alone)
`
	if b.String() != want {
		t.Errorf("text report:\n%s\nwant:\n%s", b.String(), want)
	}
}

func BenchmarkRun(b *testing.B) {
	docs := corpusDocs(b)
	p := filepath.Join(b.TempDir(), "x.parquet")
	writeParquet(b, p, asExport(docs))
	total := 0
	for _, d := range docs {
		total += len(d.md)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := Run(context.Background(), []string{p}, Options{Distance: 3}); err != nil {
			b.Fatal(err)
		}
	}
	sec := b.Elapsed().Seconds()
	b.ReportMetric(float64(len(docs)*b.N)/sec, "rows/s")
	b.ReportMetric(float64(total*b.N)/sec/1e6, "MB/s")
}

// --- corpus ---

var (
	reScript = regexp.MustCompile(`(?is)<(script|style|noscript)\b.*?</(script|style|noscript)>`)
	reTag    = regexp.MustCompile(`(?s)<[^>]*>`)
	reSpace  = regexp.MustCompile(`[ \t]*\n[\s]*`)
)

// corpusTexts returns the visible text of every HTML response in the small
// corpus WARC, in file order, standing in for extracted Markdown.
func corpusTexts(tb testing.TB) []string {
	dir, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		if filepath.Dir(dir) == dir {
			tb.Skip("no go.mod above the test directory")
		}
		dir = filepath.Dir(dir)
	}
	path := filepath.Join(dir, "..", "shared", "corpus", "small.warc.gz")
	f, err := os.Open(path)
	if err != nil {
		tb.Skipf("shared corpus not available (%v); skipping", err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		tb.Fatal(err)
	}
	br := bufio.NewReader(gz)
	var out []string
	for {
		line, err := br.ReadString('\n')
		if err == io.EOF {
			break
		}
		if err != nil {
			tb.Fatal(err)
		}
		if !strings.HasPrefix(line, "WARC/") {
			continue
		}
		hdr := map[string]string{}
		for {
			l, err := br.ReadString('\n')
			if err != nil {
				tb.Fatal(err)
			}
			if l = strings.TrimRight(l, "\r\n"); l == "" {
				break
			}
			k, v, _ := strings.Cut(l, ":")
			hdr[strings.ToLower(k)] = strings.TrimSpace(v)
		}
		n, err := strconv.Atoi(hdr["content-length"])
		if err != nil {
			tb.Fatal(err)
		}
		block := make([]byte, n)
		if _, err := io.ReadFull(br, block); err != nil {
			tb.Fatal(err)
		}
		head, body, _ := strings.Cut(string(block), "\r\n\r\n")
		if hdr["warc-type"] != "response" || !strings.Contains(strings.ToLower(head), "text/html") {
			continue
		}
		body = reScript.ReplaceAllString(body, " ")
		text := html.UnescapeString(reTag.ReplaceAllString(body, " "))
		out = append(out, strings.TrimSpace(reSpace.ReplaceAllString(text, "\n")))
	}
	if len(out) < 50 {
		tb.Fatalf("read only %d HTML pages from %s", len(out), path)
	}
	return out
}

// nullableRow has an optional simhash: null prints are computed on the fly.
type nullableRow struct {
	DocID    string  `parquet:"doc_id"`
	Markdown string  `parquet:"markdown,optional"`
	Simhash  *uint64 `parquet:"simhash,optional"`
}

// One row group of many pages is read in page-aligned slices in parallel;
// the answer must not depend on that, nor on null prints.
func TestSplitRowGroupAndNullPrints(t *testing.T) {
	docs := corpusDocs(t)
	rows := make([]nullableRow, len(docs))
	for i, d := range docs {
		rows[i] = nullableRow{DocID: d.id, Markdown: d.md}
		if i%3 != 0 {
			fp := simhash.Fingerprint(d.md)
			rows[i].Simhash = &fp
		}
	}
	p := filepath.Join(t.TempDir(), "one-group.parquet")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	w := parquet.NewGenericWriter[nullableRow](f, parquet.PageBufferSize(16<<10), parquet.Compression(&parquet.Zstd))
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()

	pfile, pf, cols, err := openFile(p)
	if err != nil {
		t.Fatal(err)
	}
	defer pfile.Close()
	if len(pf.RowGroups()) != 1 {
		t.Fatalf("fixture has %d row groups, want 1", len(pf.RowGroups()))
	}
	ranges := markdownRanges(pf.RowGroups()[0].ColumnChunks()[cols.markdown], len(rows), 4)
	if len(ranges) < 2 {
		t.Fatalf("markdown column not split (%v); the fixture needs several pages", ranges)
	}

	e := expect(docs, 3)
	for _, workers := range []int{1, 4} {
		rep, err := Run(context.Background(), []string{p}, Options{Distance: 3, Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		if want := (len(rows) + 2) / 3; rep.Fingerprinted != want {
			t.Errorf("workers=%d: fingerprinted %d rows, want %d (the null prints)", workers, rep.Fingerprinted, want)
		}
		t.Run("workers="+strconv.Itoa(workers), func(t *testing.T) { check(t, rep, e) })
	}
}

// FuzzRun feeds arbitrary bytes, seeded with real and truncated Parquet
// files, as a .parquet file: Run must return a report or an error, never
// panic.
func FuzzRun(f *testing.F) {
	dir := f.TempDir()
	p := filepath.Join(dir, "seed.parquet")
	writeParquet(f, p, asExport([]doc{{"a", "u", strings.Repeat("word ", 200)}, {"b", "v", ""}}))
	seed, err := os.ReadFile(p)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	f.Add(seed[:len(seed)/2])
	f.Add(append(append([]byte("PAR1"), seed[len(seed)/2:]...), "PAR1"...))
	f.Fuzz(func(t *testing.T, b []byte) {
		p := filepath.Join(t.TempDir(), "x.parquet")
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		rep, err := Run(context.Background(), []string{p}, Options{Distance: 3, Workers: 2})
		if err == nil && rep.Rows == 0 {
			t.Fatal("report without rows and without error")
		}
	})
}
