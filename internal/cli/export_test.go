package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/open-markdown/ccrawl/dataset"
	"github.com/open-markdown/ccrawl/internal/testutil"
)

// runCLI runs the command line in-process and returns stdout, stderr and
// the exit code.
func runCLI(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := Main(args, strings.NewReader(""), &out, &errOut)
	return out.String(), errOut.String(), code
}

func exportSmall(t *testing.T, extra ...string) (dir string, rows []dataset.Row, stdout string) {
	t.Helper()
	in := testutil.Shared(t, "corpus/small.warc.gz")
	dir = t.TempDir()
	args := append([]string{"markdown", "export", in, "--out", dir, "--progress", "none"}, extra...)
	stdout, stderr, code := runCLI(t, args...)
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	files, err := dataset.FindFiles([]string{filepath.Join(dir, "data")})
	if err != nil || len(files) != 1 {
		t.Fatalf("files %v %v", files, err)
	}
	rows, err = dataset.ReadAll[dataset.Row](files[0])
	if err != nil {
		t.Fatal(err)
	}
	return dir, rows, stdout
}

func TestExportSmallMatchesTruth(t *testing.T) {
	truth := testutil.LoadTruth(t, testutil.Shared(t, "corpus/small.warc.gz.truth.json"))
	dir, rows, stdout := exportSmall(t, "--workers", "2")

	byID := map[string]testutil.Capture{}
	html200 := 0
	for _, c := range truth.Captures {
		byID[c.RecordID] = c
		if c.IsHTML200() {
			html200++
		}
	}
	if len(rows) == 0 {
		t.Fatal("no rows")
	}
	seen := map[string]bool{}
	for _, r := range rows {
		c, ok := byID[r.WARCRecordID]
		if !ok {
			t.Fatalf("row %s has a record id not in the truth file", r.URL)
		}
		if !c.IsHTML200() {
			t.Errorf("row from a non-HTML-200 capture: %s %s %d", c.URL, c.Kind, c.Status)
		}
		if seen[r.WARCRecordID] {
			t.Errorf("record %s twice", r.WARCRecordID)
		}
		seen[r.WARCRecordID] = true
		if r.URL != c.URL || r.DocID != dataset.DocID(c.URL) || r.CrawlDate != c.Date[:10] || r.HTMLLength != c.PayloadLen {
			t.Errorf("row %s: url %q doc_id %s date %s html_length %d; truth %q %s %d", r.WARCRecordID, r.URL, r.DocID, r.CrawlDate, r.HTMLLength, c.URL, c.Date, c.PayloadLen)
		}
		if r.MarkdownLength != int64(len(r.Markdown)) || r.Markdown == "" {
			t.Errorf("row %s: markdown_length %d for %d bytes", r.URL, r.MarkdownLength, len(r.Markdown))
		}
		if !strings.HasPrefix(r.Extractor, "trafilatura@") {
			t.Errorf("extractor %q", r.Extractor)
		}
		if strings.Contains(r.Markdown, "<!--") {
			t.Errorf("%s: HTML comment in markdown", r.URL)
		}
	}
	// Every HTML 200 capture is a row unless its extraction was empty, and
	// the summary says exactly how many were.
	empty := html200 - len(rows)
	if empty < 0 || empty > html200/10 {
		t.Fatalf("%d rows of %d HTML 200 captures", len(rows), html200)
	}
	if !strings.Contains(stdout, "| "+strconv.Itoa(len(rows))+" rows |") {
		t.Errorf("summary does not report %d rows:\n%s", len(rows), stdout)
	}
	if empty > 0 && !strings.Contains(stdout, "empty="+strconv.Itoa(empty)) {
		t.Errorf("summary does not report empty=%d:\n%s", empty, stdout)
	}
	if !strings.Contains(stdout, "markdown: 1 committed, 0 skipped, 0 failed of 1 |") {
		t.Errorf("summary line:\n%s", stdout)
	}
	if _, err := os.Stat(filepath.Join(dir, ".committed")); err != nil {
		t.Errorf("no ledger: %v", err)
	}
}

func TestExportDeterministicAcrossWorkers(t *testing.T) {
	in := testutil.Shared(t, "corpus/small.warc.gz")
	var files [][]byte
	for _, w := range []string{"1", "4"} {
		dir := t.TempDir()
		if _, stderr, code := runCLI(t, "markdown", "export", in, "--out", dir, "--workers", w, "--progress", "none"); code != 0 {
			t.Fatalf("workers %s: exit %d %s", w, code, stderr)
		}
		found, _ := dataset.FindFiles([]string{dir})
		b, err := os.ReadFile(found[0])
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, b)
	}
	if !bytes.Equal(files[0], files[1]) {
		t.Fatal("--workers 1 and --workers 4 wrote different bytes")
	}
}

func TestExportDedupDigest(t *testing.T) {
	truth := testutil.LoadTruth(t, testutil.Shared(t, "corpus/small.warc.gz.truth.json"))
	_, all, _ := exportSmall(t)
	_, kept, stdout := exportSmall(t, "--dedup-digest")

	// Expected drops: HTML 200 responses whose payload digest appeared
	// before in file order.
	firstSeen := map[string]bool{}
	wantDropped := map[string]bool{}
	candidates := 0
	for _, c := range truth.Captures {
		if !c.IsHTML200() {
			continue
		}
		candidates++
		if firstSeen[c.Digest] {
			wantDropped[c.RecordID] = true
			if c.ExactDupOf == "" {
				t.Fatalf("truth: %s repeats a digest but has no exact_dup_of", c.RecordID)
			}
		}
		firstSeen[c.Digest] = true
	}
	if len(wantDropped) == 0 {
		t.Fatal("corpus has no exact duplicates to test with")
	}
	keptIDs := map[string]bool{}
	for _, r := range kept {
		keptIDs[r.WARCRecordID] = true
		if wantDropped[r.WARCRecordID] {
			t.Errorf("duplicate %s kept", r.WARCRecordID)
		}
	}
	// Record by record: a row is missing with --dedup-digest exactly when it
	// is a true duplicate. No false drops.
	for _, r := range all {
		if !keptIDs[r.WARCRecordID] && !wantDropped[r.WARCRecordID] {
			t.Errorf("false drop: %s (%s)", r.WARCRecordID, r.URL)
		}
	}
	want := "dedup: digest_dropped=" + strconv.Itoa(len(wantDropped)) + " of " + strconv.Itoa(candidates) + " candidate records"
	if !strings.Contains(stdout, want) {
		t.Errorf("want %q in:\n%s", want, stdout)
	}
	if !strings.Contains(stdout, "| "+strconv.Itoa(len(kept))+" rows |") {
		t.Errorf("rows printed != rows in file (%d):\n%s", len(kept), stdout)
	}
}

func TestExportCutsLongBodies(t *testing.T) {
	_, rows, stdout := exportSmall(t, "--max-record-bytes", "16384")
	cut := 0
	for _, r := range rows {
		if r.HTMLLength > 16384 {
			t.Errorf("%s: %d bytes given to extraction", r.URL, r.HTMLLength)
		}
		if r.HTMLLength == 16384 {
			cut++
		}
	}
	// Every body at the cap was cut; some cut pages may extract to nothing.
	m := regexp.MustCompile(`cut to --max-record-bytes and kept: (\d+)`).FindStringSubmatch(stdout)
	if cut == 0 || m == nil {
		t.Fatalf("%d rows at the cap; summary:\n%s", cut, stdout)
	}
	if n, _ := strconv.Atoi(m[1]); n < cut || n > cut+10 {
		t.Errorf("summary counts %d cut bodies, %d rows are at the cap", n, cut)
	}
}
