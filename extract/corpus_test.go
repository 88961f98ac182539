package extract

import (
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/open-markdown/ccrawl/internal/testutil"

	"github.com/open-markdown/ccrawl/internal/version"
	"github.com/open-markdown/ccrawl/warc"
)

// corpusDir finds ../shared/corpus next to the module root.
func corpusDir(t testing.TB) string {
	t.Helper()
	dir := testutil.RepoRoot(t)
	c := filepath.Join(dir, "..", "shared", "corpus")
	if _, err := os.Stat(c); err != nil {
		t.Skipf("shared corpus absent (%s): %v", c, err)
	}
	return c
}

type truthCapture struct {
	RecordID string `json:"record_id"`
	WARCType string `json:"warc_type"`
	URL      string `json:"url"`
	Status   int    `json:"status"`
	Kind     string `json:"kind"`
	Charset  *struct {
		Actual       string `json:"actual"`
		Header       string `json:"header"`
		Meta         string `json:"meta"`
		Effective    string `json:"effective"`
		Mislabeled   bool   `json:"mislabeled"`
		MislabelKind string `json:"mislabel_kind"`
		Reencoded    bool   `json:"reencoded"`
	} `json:"charset"`
	NearGroup     string   `json:"near_group"`
	NearVariation string   `json:"near_variation"`
	Transform     []string `json:"transform"`
	Source        *struct {
		File string `json:"file"`
	} `json:"source"`
}

type truth struct {
	Captures   []truthCapture `json:"captures"`
	NearGroups []struct {
		ID   string `json:"id"`
		Keep string `json:"keep"`
	} `json:"near_groups"`
}

type corpusPage struct {
	Page
	cap truthCapture
}

// readCorpus returns the HTML 200 responses of one corpus WARC with their
// truth entries, keyed by WARC-Record-ID.
func readCorpus(t testing.TB, path string) (map[string]corpusPage, truth) {
	t.Helper()
	var tr truth
	b, err := os.ReadFile(path + ".truth.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &tr); err != nil {
		t.Fatalf("%s.truth.json: %v", path, err)
	}
	caps := map[string]truthCapture{}
	for _, c := range tr.Captures {
		if c.Kind == "html" && c.Status == 200 && c.WARCType == "response" && c.Charset != nil {
			caps[c.RecordID] = c
		}
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rd, err := warc.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	pages := map[string]corpusPage{}
	for {
		rec, err := rd.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		c, ok := caps[rec.Header.Get("WARC-Record-ID")]
		if !ok || rec.Type != "response" {
			continue
		}
		resp, err := warc.ReadHTTPResponse(rec.Body)
		if err != nil {
			t.Fatalf("%s %s: %v", path, c.URL, err)
		}
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatalf("%s %s: %v", path, c.URL, err)
		}
		pages[c.RecordID] = corpusPage{Page{URL: c.URL, Body: body, ContentType: resp.Header.Get("Content-Type")}, c}
	}
	if len(pages) == 0 {
		t.Fatalf("%s: no HTML responses matched the truth file", path)
	}
	return pages, tr
}

func corpusFiles(t testing.TB) []string {
	dir := corpusDir(t)
	files := []string{"small.warc.gz", "small-b.warc.gz", "small-c.warc.gz"}
	if !testing.Short() {
		files = append(files, "medium.warc.gz")
	}
	for i, f := range files {
		files[i] = filepath.Join(dir, f)
	}
	return files
}

// sameCharset compares our label with the truth's actual encoding by WHATWG
// name (iso-8859-1 is windows-1252; gbk and gb18030 decode GBK alike).
func sameCharset(got, actual string) bool {
	_, want := lookup(actual)
	if got == want {
		return true
	}
	gb := func(s string) bool { return s == "gbk" || s == "gb18030" }
	return gb(got) && gb(want)
}

// TestCorpusCharsets decodes every HTML capture of the corpus and checks
// the charset against the truth file: declared, undeclared, re-encoded and
// mislabelled pages alike.
func TestCorpusCharsets(t *testing.T) {
	for _, path := range corpusFiles(t) {
		pages, _ := readCorpus(t, path)
		var n int
		for _, p := range pages {
			cs := p.cap.Charset
			got, label := DecodeHTML(p.Body, p.ContentType)
			if !utf8.Valid(got) {
				t.Errorf("%s: invalid UTF-8 output", p.URL)
			}
			if !hasNonASCII(p.Body) {
				continue // any ASCII-compatible label decodes it the same
			}
			n++
			if !sameCharset(label, cs.Actual) {
				t.Errorf("%s %s: charset %q, actual %q (header %q, meta %q, mislabelled %v %s)",
					filepath.Base(path), p.URL, label, cs.Actual, cs.Header, cs.Meta, cs.Mislabeled, cs.MislabelKind)
			}
			if cs.MislabelKind == "utf8-as-latin1" && hasMojibake(string(got)) {
				t.Errorf("%s: mojibake after decoding a UTF-8 page labelled latin1", p.URL)
			}
		}
		t.Logf("%s: %d non-ASCII HTML pages checked", filepath.Base(path), n)
	}
}

// trafilaturaPages returns the directory of the go-trafilatura module, whose
// test pages are the corpus generator's sources.
func trafilaturaPages(t *testing.T) string {
	// The pristine module (go.mod replaces the library's Go sources with a
	// patched copy that has no test files).
	cmd := exec.Command("go", "mod", "download", "-json", trafilaturaModule+"@"+version.Module(trafilaturaModule))
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	out, err := cmd.Output()
	var mod struct{ Dir string }
	if err != nil || json.Unmarshal(out, &mod) != nil || mod.Dir == "" {
		t.Skipf("go-trafilatura module dir not found: %v", err)
	}
	dir := mod.Dir
	return filepath.Join(dir, "test-files")
}

// wordDiff returns the words of a missing from b, counted with
// multiplicity, and the number of words of a.
func wordDiff(a, b string) (missing []string, total int) {
	have := map[string]int{}
	for _, w := range strings.Fields(b) {
		have[w]++
	}
	for _, w := range strings.Fields(a) {
		total++
		if have[w] > 0 {
			have[w]--
		} else {
			missing = append(missing, w)
		}
	}
	return missing, total
}

// TestCorpusReencodedSameWords extracts every re-encoded or mislabelled
// capture and its UTF-8 original (the near-duplicate group's kept record, or
// the generator's source page) and requires the same words.
func TestCorpusReencodedSameWords(t *testing.T) {
	e := mustNew(t, "trafilatura")
	var srcDir string
	var compared int
	for _, path := range corpusFiles(t) {
		pages, tr := readCorpus(t, path)
		keep := map[string]string{}
		for _, g := range tr.NearGroups {
			keep[g.ID] = g.Keep
		}
		for _, p := range pages {
			cs := p.cap.Charset
			if !cs.Reencoded && !cs.Mislabeled {
				continue
			}
			var orig Page
			switch {
			case p.cap.NearVariation == "reencode":
				k, ok := pages[keep[p.cap.NearGroup]]
				if !ok {
					t.Errorf("%s: original of near group %s not found", p.URL, p.cap.NearGroup)
					continue
				}
				orig = k.Page
			case len(p.cap.Transform) > 0 && p.cap.Transform[0] == "original" && onlyCharsetTransforms(p.cap.Transform[1:]) && p.cap.Source != nil:
				if srcDir == "" {
					srcDir = trafilaturaPages(t)
				}
				b, err := os.ReadFile(filepath.Join(srcDir, p.cap.Source.File))
				if err != nil {
					t.Fatalf("%s: source page: %v", p.URL, err)
				}
				orig = Page{URL: p.URL, Body: b, ContentType: "text/html; charset=utf-8"}
			default:
				continue // remixed pages have no byte-identical original
			}
			want, err1 := e.Extract(Page{URL: p.URL, Body: orig.Body, ContentType: orig.ContentType})
			got, err2 := e.Extract(p.Page)
			if err1 != nil || err2 != nil {
				t.Errorf("%s: original err %v, variant err %v", p.URL, err1, err2)
				continue
			}
			compared++
			missing, total := wordDiff(want, got)
			extra, _ := wordDiff(got, want)
			// Characters a legacy charset cannot hold are written as "?"
			// by the encoder; allow those few words, nothing systematic.
			if len(missing)+len(extra) > 2+total/100 {
				t.Errorf("%s (%s, header %q, mislabel %q): %d of %d words differ from the UTF-8 original; missing %.10q extra %.10q",
					p.URL, cs.Actual, cs.Header, cs.MislabelKind, len(missing)+len(extra), total, missing, extra)
			}
			if !hasMojibake(want) && hasMojibake(got) {
				t.Errorf("%s: mojibake in the variant's Markdown", p.URL)
			}
		}
	}
	if compared == 0 {
		t.Fatal("no re-encoded page compared")
	}
	t.Logf("%d re-encoded or mislabelled pages compared with their originals", compared)
}

func onlyCharsetTransforms(ts []string) bool {
	for _, t := range ts {
		if !strings.HasPrefix(t, "encode:") && !strings.HasPrefix(t, "mislabel:") {
			return false
		}
	}
	return true
}

// BenchmarkExtractCorpus measures each engine on the small corpus shard's
// HTML pages (decode + parse + extract + render).
func BenchmarkExtractCorpus(b *testing.B) {
	dir := corpusDir(b)
	m, _ := readCorpus(b, filepath.Join(dir, "small.warc.gz"))
	var pages []Page
	for _, p := range m {
		pages = append(pages, p.Page)
	}
	sort.Slice(pages, func(i, j int) bool { return pages[i].URL < pages[j].URL })
	for _, engine := range Names() {
		b.Run(engine, func(b *testing.B) {
			e := mustNew(b, engine)
			var n, size int
			for b.Loop() {
				p := pages[n%len(pages)]
				e.Extract(p)
				n++
				size += len(p.Body)
			}
			b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "pages/s")
			b.ReportMetric(float64(size)/1e6/b.Elapsed().Seconds(), "MB/s")
		})
	}
}
