package extract

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"
)

func readFixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func mustNew(t testing.TB, name string, opts ...Option) Extractor {
	t.Helper()
	e, err := New(name, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

var spaces = regexp.MustCompile(` {2,}`)

const articleURL = "https://example.com/blog/workshop/tidy.html"

func TestEngines(t *testing.T) {
	body := readFixture(t, "article.html")
	tests := []struct {
		engine  string
		want    []string // substrings the Markdown must contain
		notWant []string
	}{
		{
			engine: "trafilatura",
			want: []string{"# Keeping a workshop tidy", "## Start with the walls", "- Sweep the floor every evening",
				"| Top row | 40 mm | Screws and washers |", "Finally, keep a notebook"},
			notWant: []string{"All rights reserved", "Imprint"},
		},
		{
			engine:  "readability",
			want:    []string{"Start with the walls", "Return every tool to its outline", "Screws and washers"},
			notWant: []string{"All rights reserved"},
		},
		{
			engine: "raw",
			want:   []string{"Keeping a workshop tidy", "All rights reserved", "[Imprint](https://example.com/imprint)"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.engine, func(t *testing.T) {
			e := mustNew(t, tt.engine)
			if e.Name() != tt.engine {
				t.Errorf("Name() = %q, want %q", e.Name(), tt.engine)
			}
			if !strings.HasPrefix(e.Version(), tt.engine+"@") {
				t.Errorf("Version() = %q, want prefix %q", e.Version(), tt.engine+"@")
			}
			md, err := e.Extract(Page{URL: articleURL, Body: body, ContentType: "text/html; charset=utf-8"})
			if err != nil {
				t.Fatal(err)
			}
			squeezed := spaces.ReplaceAllString(md, " ") // tables are padded
			for _, w := range tt.want {
				if !strings.Contains(squeezed, w) {
					t.Errorf("missing %q in:\n%s", w, md)
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(md, w) {
					t.Errorf("unexpected %q in:\n%s", w, md)
				}
			}
			if strings.Contains(md, "<!--") {
				t.Errorf("HTML comment artefact in:\n%s", md)
			}
			if md != strings.TrimSpace(md) {
				t.Errorf("output not trimmed: %q", md)
			}
			for _, l := range strings.Split(md, "\n") {
				if l != strings.TrimRight(l, " \t") {
					t.Errorf("trailing white space on line %q", l)
				}
			}
			again, err := e.Extract(Page{URL: articleURL, Body: body, ContentType: "text/html; charset=utf-8"})
			if err != nil || again != md {
				t.Errorf("second run differs (err %v)", err)
			}
		})
	}
}

func TestNewUnknown(t *testing.T) {
	_, err := New("jusText")
	if err == nil {
		t.Fatal("want an error for an unknown engine")
	}
	for _, n := range Names() {
		if !strings.Contains(err.Error(), n) {
			t.Errorf("error %q does not list %q", err, n)
		}
	}
	if Names()[0] != Default {
		t.Errorf("Names()[0] = %q, want the default %q", Names()[0], Default)
	}
	if e, err := New(""); err != nil || e.Name() != Default {
		t.Errorf(`New("") = %v, %v; want the default engine`, e, err)
	}
}

func TestRelativeLinks(t *testing.T) {
	body := readFixture(t, "article.html")
	for _, engine := range []string{"trafilatura", "readability", "raw"} {
		md, err := mustNew(t, engine, Links(true)).Extract(Page{URL: articleURL, Body: body})
		if err != nil {
			t.Fatal(engine, err)
		}
		for _, w := range []string{
			"[pegboard guide](https://example.com/blog/workshop/guides/pegboard.html)",
			"[list of hooks](https://example.com/blog/shop/hooks)",
		} {
			if !strings.Contains(md, w) {
				t.Errorf("%s: missing %q in:\n%s", engine, w, md)
			}
		}
	}
	// A <base href> takes precedence over the page URL.
	based := strings.Replace(string(body), "<head>", `<head><base href="https://cdn.example.net/mirror/">`, 1)
	md, err := mustNew(t, "trafilatura", Links(true)).Extract(Page{URL: articleURL, Body: []byte(based)})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md, "(https://cdn.example.net/mirror/guides/pegboard.html)") {
		t.Errorf("base href ignored:\n%s", md)
	}
}

func TestNoListEndComment(t *testing.T) {
	body := readFixture(t, "article.html")
	for _, engine := range Names() {
		md, err := mustNew(t, engine).Extract(Page{URL: articleURL, Body: body})
		if err != nil {
			t.Fatal(engine, err)
		}
		if strings.Contains(md, "THE END") || strings.Contains(md, "<!--") {
			t.Errorf("%s: comment artefact between adjacent lists:\n%s", engine, md)
		}
		if !strings.Contains(md, "Return every tool to its outline") || !strings.Contains(md, "Empty the dust bags on Fridays") {
			t.Errorf("%s: list items lost:\n%s", engine, md)
		}
	}
}

var mdSyntax = regexp.MustCompile(`\]\([^)]*\)|[\[\]*_` + "`" + `#|>\\-]`)

// TestNoGluedWords checks that every word of the Markdown occurs in the
// page: go-trafilatura trims the white space after inline elements, which
// would glue "Dockerfile" and "to".
func TestNoGluedWords(t *testing.T) {
	body := readFixture(t, "inline.html")
	doc, _, err := parseHTML(body, "")
	if err != nil {
		t.Fatal(err)
	}
	page := strings.Join(strings.Fields(visibleText(doc)), " ")
	for _, engine := range []string{"trafilatura", "readability"} {
		md, err := mustNew(t, engine).Extract(Page{URL: "https://example.com/notes/containers", Body: body})
		if err != nil {
			t.Fatal(engine, err)
		}
		for _, w := range []string{"`Dockerfile` to ensure", "*release notes* so", "**build cache** is", "`--no-cache` once", "**distroless** or *scratch* images"} {
			if !strings.Contains(md, w) {
				t.Errorf("%s: missing %q in:\n%s", engine, w, md)
			}
		}
		text := mdSyntax.ReplaceAllString(md, " ")
		for _, w := range strings.Fields(text) {
			w = strings.TrimFunc(w, func(r rune) bool { return unicode.IsPunct(r) || unicode.IsSymbol(r) })
			if w != "" && !strings.Contains(page, w) {
				t.Errorf("%s: word %q is not in the page", engine, w)
			}
		}
	}
}

type slowExtractor struct{ d time.Duration }

func (slowExtractor) Name() string    { return "slow" }
func (slowExtractor) Version() string { return "slow@v0" }
func (s slowExtractor) Extract(p Page) (string, error) {
	time.Sleep(s.d)
	return "done " + p.URL, nil
}

func TestWithTimeout(t *testing.T) {
	tests := []struct {
		name    string
		work    time.Duration
		budget  time.Duration
		wantErr error
	}{
		{"over budget", 2 * time.Second, 20 * time.Millisecond, ErrTimeout},
		{"within budget", 0, 5 * time.Second, nil},
		{"no budget", 10 * time.Millisecond, 0, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := WithTimeout(slowExtractor{tt.work}, tt.budget)
			if e.Name() != "slow" || e.Version() != "slow@v0" {
				t.Errorf("wrapper changed Name/Version: %q %q", e.Name(), e.Version())
			}
			md, err := e.Extract(Page{URL: "u"})
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if tt.wantErr == nil && md != "done u" {
				t.Errorf("md = %q", md)
			}
		})
	}
}

func TestEmpty(t *testing.T) {
	for _, engine := range Names() {
		_, err := mustNew(t, engine).Extract(Page{URL: "https://example.com/", Body: []byte("<html><body></body></html>")})
		if !errors.Is(err, ErrEmpty) {
			t.Errorf("%s: err = %v, want ErrEmpty", engine, err)
		}
	}
}

// TestConcurrent runs every engine from many goroutines (run with -race) and
// checks the results equal the sequential ones.
func TestConcurrent(t *testing.T) {
	pages := []Page{
		{URL: articleURL, Body: readFixture(t, "article.html")},
		{URL: "https://example.com/notes/containers", Body: readFixture(t, "inline.html")},
	}
	for _, engine := range Names() {
		e := mustNew(t, engine)
		want := make([]string, len(pages))
		for i, p := range pages {
			want[i], _ = e.Extract(p)
		}
		var wg sync.WaitGroup
		for g := 0; g < 8; g++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range pages {
					p := pages[(i+g)%len(pages)]
					got, _ := e.Extract(p)
					if got != want[(i+g)%len(pages)] {
						t.Errorf("%s: concurrent result differs for %s", engine, p.URL)
					}
				}
			}()
		}
		wg.Wait()
	}
}

func BenchmarkExtractFixtures(b *testing.B) {
	pages := []Page{
		{URL: articleURL, Body: readFixture(b, "article.html")},
		{URL: "https://example.com/notes/containers", Body: readFixture(b, "inline.html")},
	}
	for _, engine := range Names() {
		b.Run(engine, func(b *testing.B) {
			e := mustNew(b, engine)
			var n, bytes int
			for b.Loop() {
				p := pages[n%len(pages)]
				if _, err := e.Extract(p); err != nil {
					b.Fatal(err)
				}
				n++
				bytes += len(p.Body)
			}
			b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "pages/s")
			b.ReportMetric(float64(bytes)/1e6/b.Elapsed().Seconds(), "MB/s")
		})
	}
}

func FuzzExtract(f *testing.F) {
	f.Add([]byte("<p>a <b>b</b>c <code>d</code> e</p>"), "https://example.com/a/b.html")
	f.Add([]byte("<ul><li>x</li></ul><ul><li>y</li></ul><noscript><img src=x></noscript>"), "")
	f.Add([]byte("<html><head><base href='/x/'></head><body><a href='y'>z</a></body></html>"), "http://h/")
	f.Fuzz(func(t *testing.T, body []byte, url string) {
		for _, engine := range Names() {
			md, err := mustNew(t, engine).Extract(Page{URL: url, Body: body})
			if err != nil {
				continue
			}
			if !utf8.ValidString(md) {
				t.Fatalf("%s: invalid UTF-8 output", engine)
			}
			if strings.Contains(md, "<!--THE END-->") {
				t.Fatalf("%s: list-end comment in output", engine)
			}
		}
	})
}

func TestTidy(t *testing.T) {
	tests := []struct{ in, want string }{
		{"a  \nb\t\n", "a\nb"},
		{"a\n\n\n\nb", "a\n\nb"},
		{"\n\n# h\n\ntext \u00a0\n", "# h\n\ntext"},
		{"```\ncode  \n\n\n\nmore \n```\nafter  ", "```\ncode  \n\n\n\nmore \n```\nafter"},
		{"~~~go\nx \n~~~\n\n\n\ny", "~~~go\nx \n~~~\n\ny"},
	}
	for _, tt := range tests {
		if got := tidy(tt.in); got != tt.want {
			t.Errorf("tidy(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
