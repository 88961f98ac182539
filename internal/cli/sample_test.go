package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"unicode"

	"github.com/open-markdown/ccrawl/dataset"
	"github.com/open-markdown/ccrawl/internal/sample"
)

// linkTarget matches Markdown link destinations: the twins live on other
// hosts, so their absolute links differ while their text does not.
var linkTarget = regexp.MustCompile(`\]\([^)]*\)`)

func words(s string) []string {
	s = linkTarget.ReplaceAllString(s, "]")
	f := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	sort.Strings(f)
	return f
}

// TestSampleShardEndToEnd exports the sample that ships in testdata/ (the
// README's first command) and checks it against its truth file: every
// charset variant carries the same words as its UTF-8 twin, languages are
// right, and main text is in while boilerplate is out.
func TestSampleShardEndToEnd(t *testing.T) {
	warcPath, truthPath, err := sample.Paths(".")
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(truthPath)
	if err != nil {
		t.Fatal(err)
	}
	truth, err := sample.ReadTruth(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	if stdout, stderr, code := runCLI(t, "markdown", "export", warcPath, "--out", out, "--progress", "none"); code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	files, _ := dataset.FindFiles([]string{filepath.Join(out, "data")})
	if len(files) != 1 || !strings.Contains(files[0], "crawl="+sample.CrawlID) {
		t.Fatalf("files %v", files)
	}
	rows, err := dataset.ReadAll[dataset.Row](files[0])
	if err != nil {
		t.Fatal(err)
	}
	byURL := map[string]dataset.Row{}
	for _, r := range rows {
		byURL[r.URL] = r
	}
	variants := 0
	for _, c := range truth.Captures {
		if c.Kind != "html" {
			if _, ok := byURL[c.URL]; ok && c.Kind != "tiny" {
				t.Errorf("%s (%s) became a row", c.URL, c.Kind)
			}
			continue
		}
		r, ok := byURL[c.URL]
		if !ok {
			t.Errorf("html capture %s is not a row", c.URL)
			continue
		}
		if c.Language != "" && r.Language != c.Language {
			t.Errorf("%s: language %s, truth %s", c.URL, r.Language, c.Language)
		}
		if c.TextProbe != "" && !strings.Contains(strings.Join(strings.Fields(r.Markdown), " "), c.TextProbe) {
			t.Errorf("%s: main text probe missing", c.URL)
		}
		if c.BoilerplateProbe != "" && strings.Contains(r.Markdown, c.BoilerplateProbe) {
			t.Errorf("%s: boilerplate kept", c.URL)
		}
		if c.Charset != nil && c.Charset.UTF8Twin != "" {
			variants++
			twin, ok := byURL[c.Charset.UTF8Twin]
			if !ok {
				t.Errorf("%s: twin %s not a row", c.URL, c.Charset.UTF8Twin)
				continue
			}
			if a, b := strings.Join(words(r.Markdown), " "), strings.Join(words(twin.Markdown), " "); a != b {
				t.Errorf("%s (%s): words differ from its UTF-8 twin\n got: %.200s\nwant: %.200s", c.URL, c.Charset.Case, a, b)
			}
		}
	}
	if variants < 5 {
		t.Errorf("only %d charset variants checked", variants)
	}
}
