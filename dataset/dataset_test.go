package dataset

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWriterRoundTripAndTypes(t *testing.T) {
	dir := t.TempDir()
	path := ShardPath(dir, "CC-MAIN-2025-43", 42)
	if filepath.Base(path) != "000042.parquet" || filepath.Base(filepath.Dir(path)) != "crawl=CC-MAIN-2025-43" {
		t.Fatalf("path %s", path)
	}
	w, err := Create[Row](path, map[string]string{MetaSchema: SchemaExport, MetaVersion: "test"}, func(r *Row) int64 { return int64(len(r.Markdown)) })
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("final file exists before Close: %v", err)
	}
	rows := []Row{
		{DocID: DocID("http://a.example/"), URL: "http://a.example/", Host: "a.example", Markdown: "# A", MarkdownLength: 3, Simhash: 1 << 63, LanguageConfidence: 0.5},
		{DocID: DocID("http://b.example/"), URL: "http://b.example/", Host: "b.example", Markdown: "B", MarkdownLength: 1, Simhash: 7},
	}
	if err := w.Write(rows...); err != nil {
		t.Fatal(err)
	}
	size, err := w.Close()
	if err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(path); err != nil || st.Size() != size {
		t.Fatalf("stat %v size %d want %d", err, st.Size(), size)
	}
	if _, err := os.Stat(path + TempSuffix); !os.IsNotExist(err) {
		t.Fatalf("temp file left: %v", err)
	}
	got, err := ReadAll[Row](path)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0] != rows[0] || got[1] != rows[1] {
		t.Fatalf("round trip: %+v", got)
	}
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want := []string{"doc_id", "url", "host", "crawl_date", "warc_record_id", "html_length", "markdown_length", "markdown", "language", "language_confidence", "extractor", "simhash"}
	cols := f.Columns()
	if len(cols) != len(want) {
		t.Fatalf("columns %v", cols)
	}
	for i := range want {
		if cols[i] != want[i] {
			t.Fatalf("column %d = %s want %s", i, cols[i], want[i])
		}
	}
	if s, _ := f.Metadata(MetaSchema); s != SchemaExport {
		t.Fatalf("schema metadata %q", s)
	}
	var seen []uint64
	err = f.EachRecord([]string{"simhash", "url"}, func(m map[string]any) error {
		seen = append(seen, m["simhash"].(uint64))
		return nil
	})
	if err != nil || len(seen) != 2 || seen[0] != 1<<63 {
		t.Fatalf("EachRecord: %v %v", err, seen)
	}
	if err := f.EachRecord([]string{"nope"}, func(map[string]any) error { return nil }); err == nil {
		t.Fatal("missing column accepted")
	}
}

func TestAbortLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "x.parquet")
	w, err := Create[Row](path, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(Row{URL: "u"})
	w.Abort()
	entries, _ := os.ReadDir(dir)
	if len(entries) != 0 {
		t.Fatalf("left %v", entries)
	}
}

func TestOpenNotParquet(t *testing.T) {
	p := filepath.Join(t.TempDir(), "x.parquet")
	os.WriteFile(p, []byte("hello, not parquet"), 0o644)
	if _, err := Open(p); err == nil {
		t.Fatal("opened garbage")
	}
}

func TestRemoveStaleTemps(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "data", "crawl=x"), 0o755)
	os.WriteFile(filepath.Join(dir, "data", "crawl=x", "000001.parquet"+TempSuffix), []byte("x"), 0o644)
	os.WriteFile(filepath.Join(dir, "data", "crawl=x", "000002.parquet"), []byte("x"), 0o644)
	n, err := RemoveStaleTemps(dir)
	if err != nil || n != 1 {
		t.Fatalf("removed %d, %v", n, err)
	}
}

func TestDocID(t *testing.T) {
	// printf 'http://example.com/' | sha256sum | cut -c1-32
	if got := DocID("http://example.com/"); got != "2a1b402420ef46577471cdc7409b0fa2" {
		t.Fatalf("DocID = %s", got)
	}
	if DocID("a") == DocID("b") {
		t.Fatal("collision")
	}
}
