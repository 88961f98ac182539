package cli

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/open-markdown/ccrawl/internal/testutil"
	"github.com/open-markdown/ccrawl/simhash"
	"github.com/parquet-go/parquet-go"
)

type dedupFixtureRow struct {
	DocID    string `parquet:"doc_id"`
	URL      string `parquet:"url"`
	Markdown string `parquet:"markdown"`
	Simhash  uint64 `parquet:"simhash"`
}

func dedupMain(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = Main(append([]string{"dedup"}, args...), strings.NewReader(""), &out, &errOut)
	return code, out.String(), errOut.String()
}

var dedupTag = regexp.MustCompile(`(?s)<script.*?</script>|<style.*?</style>|<[^>]*>`)

// dedupFixture writes a Parquet file of real page texts from the shared
// corpus with planted duplicates: row 1 copies row 0 byte for byte, row 3 is
// row 2 with one word changed, and row 5 is an empty (failed) row. It
// returns the path and the doc_ids of the rows a dedup must drop.
func dedupFixture(t *testing.T) (string, []string) {
	t.Helper()
	f, err := os.Open(testutil.Shared(t, "corpus/small.warc.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(gz)
	var texts []string
	for len(texts) < 40 {
		line, err := br.ReadString('\n')
		if err != nil {
			t.Fatalf("corpus ended after %d pages: %v", len(texts), err)
		}
		if !strings.HasPrefix(line, "WARC/") {
			continue
		}
		n := -1
		for line != "\r\n" { // WARC header lines up to the blank one
			if line, err = br.ReadString('\n'); err != nil {
				t.Fatal(err)
			}
			if v, ok := strings.CutPrefix(line, "Content-Length:"); ok {
				n, _ = strconv.Atoi(strings.TrimSpace(v))
			}
		}
		block := make([]byte, n)
		if _, err := io.ReadFull(br, block); err != nil {
			t.Fatal(err)
		}
		head, body, ok := strings.Cut(string(block), "\r\n\r\n")
		if !ok || !strings.HasPrefix(head, "HTTP/") || !strings.Contains(head, "text/html") {
			continue
		}
		text := strings.Join(strings.Fields(dedupTag.ReplaceAllString(body, " ")), " ")
		if len(text) > 2000 && !slices.Contains(texts, text) {
			texts = append(texts, text)
		}
	}
	words := strings.Fields(texts[2])
	words[len(words)/2] = "zzyzx"
	mds := []string{texts[0], texts[0], texts[2], strings.Join(words, " "), texts[4], ""}
	mds = append(mds, texts[10:]...)
	rows := make([]dedupFixtureRow, len(mds))
	for i, md := range mds {
		rows[i] = dedupFixtureRow{DocID: "doc" + strconv.Itoa(i), URL: "https://example.org/" + strconv.Itoa(i), Markdown: md, Simhash: simhash.Fingerprint(md)}
	}
	path := filepath.Join(t.TempDir(), "shard.parquet")
	if err := parquet.WriteFile(path, rows); err != nil {
		t.Fatal(err)
	}
	return path, []string{"doc1", "doc3"}
}

func TestDedupCommand(t *testing.T) {
	path, wantDrop := dedupFixture(t)
	code, out, errOut := dedupMain(t, filepath.Dir(path))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"36 rows in 1 files", "exact duplicates            1 in 1 clusters", "near duplicates             1 in 1 clusters", "redundant                   2", "no fingerprint              1", "keep https://example.org/0", "drop https://example.org/1"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}

	red := filepath.Join(t.TempDir(), "drop.txt")
	code, out, errOut = dedupMain(t, "--json", "--top", "1", "--redundant", red, path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep struct {
		Rows          int                  `json:"rows"`
		Redundant     int                  `json:"redundant"`
		RedundantFile string               `json:"redundant_file"`
		Top           []struct{ Size int } `json:"top_clusters"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("--json output is not JSON: %v\n%s", err, out)
	}
	if rep.Rows != 36 || rep.Redundant != 2 || len(rep.Top) != 1 || rep.RedundantFile != red {
		t.Errorf("json report = %+v", rep)
	}
	b, err := os.ReadFile(red)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Fields(string(b)); !slices.Equal(got, wantDrop) {
		t.Errorf("redundant file = %q, want %q", got, wantDrop)
	}

	redPQ := filepath.Join(t.TempDir(), "drop.parquet")
	if code, _, errOut := dedupMain(t, "--redundant", redPQ, path); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	ids, err := parquet.ReadFile[struct {
		DocID string `parquet:"doc_id"`
	}](redPQ)
	if err != nil {
		t.Fatal(err)
	}
	if len(ids) != 2 || ids[0].DocID != "doc1" || ids[1].DocID != "doc3" {
		t.Errorf("redundant parquet = %v", ids)
	}

	// A wider distance can only join more rows.
	code, out, _ = dedupMain(t, "--distance", "64", path)
	if code != 0 || !strings.Contains(out, "redundant                  34") {
		t.Errorf("--distance 64: exit %d\n%s", code, out)
	}
}

func TestDedupErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.parquet")
	if err := os.WriteFile(bad, []byte("PAR1 but not really"), 0o644); err != nil {
		t.Fatal(err)
	}
	empty := t.TempDir()
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"distance too large", []string{"--distance", "65", dir}, ExitUsage, "--distance 65"},
		{"negative distance", []string{"--distance", "-1", dir}, ExitUsage, "--distance -1"},
		{"negative top", []string{"--top", "-1", dir}, ExitUsage, "--top"},
		{"no arguments", nil, ExitUsage, "requires at least 1 arg"},
		{"not parquet", []string{bad}, ExitFailure, "not a readable Parquet file"},
		{"no parquet files", []string{empty}, ExitFailure, "no .parquet files"},
		{"missing file", []string{filepath.Join(dir, "nope.parquet")}, ExitFailure, "no such file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := dedupMain(t, tt.args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d (stderr %q)", code, tt.code, errOut)
			}
			if !strings.Contains(errOut, tt.want) || strings.Count(errOut, "\n") != 1 {
				t.Errorf("stderr = %q, want one line containing %q", errOut, tt.want)
			}
			if out != "" {
				t.Errorf("stdout = %q, want nothing on error", out)
			}
		})
	}
}
