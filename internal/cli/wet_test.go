package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/open-markdown/ccrawl/commoncrawl/cctest"
	"github.com/open-markdown/ccrawl/dataset"
	"github.com/open-markdown/ccrawl/internal/testutil"
	"github.com/open-markdown/ccrawl/warc"
)

var wetTexts = []string{
	"Die Stadtbibliothek verlängert ihre Öffnungszeiten am Wochenende und lädt alle Leserinnen und Leser zu einer Lesung ein.",
	"The harbour authority announced that the old lighthouse will be restored next summer with the help of local volunteers.",
	"The harbour authority announced that the old lighthouse will be restored next summer with the help of local volunteers.",
	"   ",
}

// wetFile writes a WET shard: warcinfo, then one conversion record per text.
func wetFile(t *testing.T, dir string) string {
	var buf bytes.Buffer
	w := warc.NewWriter(&buf, true)
	w.Digests = true
	w.WriteRecord(warc.Header{{Name: "WARC-Type", Value: "warcinfo"}}, []byte("isPartOf: CC-MAIN-2026-30\r\n"))
	for i, text := range wetTexts {
		h := warc.Header{{Name: "WARC-Type", Value: "conversion"}, {Name: "WARC-Target-URI", Value: "https://site.example/" + string(rune('a'+i))},
			{Name: "WARC-Date", Value: "2026-07-02T08:00:00Z"}, {Name: "Content-Type", Value: "text/plain"}}
		if err := w.WriteRecord(h, []byte(text)); err != nil {
			t.Fatal(err)
		}
	}
	p := filepath.Join(dir, "CC-MAIN-20260702000000-20260702010000-00003.warc.wet.gz")
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestExportWETPassesTextThrough(t *testing.T) {
	dir := t.TempDir()
	in := wetFile(t, dir)
	out := filepath.Join(dir, "out")
	stdout, stderr, code := runCLI(t, "markdown", "export", in, "--out", out, "--source-kind", "wet", "--extractor", "wet", "--dedup-digest", "--progress", "none")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	rows, err := dataset.ReadAll[dataset.Row](dataset.ShardPath(out, "CC-MAIN-2026-30", 3))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || rows[0].Markdown != wetTexts[0] || rows[1].Markdown != wetTexts[1] {
		t.Fatalf("rows %+v", rows)
	}
	for _, r := range rows {
		if r.Extractor != "wet@CC-MAIN-2026-30" || r.Language == "" || r.Simhash == 0 {
			t.Errorf("row %s: extractor %q language %q simhash %x", r.URL, r.Extractor, r.Language, r.Simhash)
		}
	}
	if !strings.Contains(stdout, "digest_dropped=1") || !strings.Contains(stdout, "empty=1") {
		t.Errorf("summary:\n%s", stdout)
	}
}

func TestExportWETFromManifest(t *testing.T) {
	dir := t.TempDir()
	srv := cctest.NewServer(t, cctest.Config{Shards: []string{cctest.Corpus(t, "small.warc.gz")}, WET: []string{wetFile(t, dir)}})
	out := filepath.Join(dir, "out")
	stdout, stderr, code := runCLI(t, "markdown", "export", "--base-url", srv.URL, "--crawl", srv.Crawl, "--shards", "0", "--source-kind", "wet", "--extractor", "wet", "--out", out, "--progress", "none")
	if code != 0 || !strings.Contains(stdout, "| 3 rows |") {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
}

func TestExportWETOnWARCFails(t *testing.T) {
	in := testutil.Shared(t, "corpus/small.warc.gz")
	_, stderr, code := runCLI(t, "markdown", "export", in, "--out", t.TempDir(), "--source-kind", "wet", "--extractor", "wet", "--progress", "none")
	if code != 1 || !strings.Contains(stderr, "WARC file of HTTP responses") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
}
