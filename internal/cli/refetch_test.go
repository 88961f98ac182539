package cli

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/open-markdown/ccrawl/dataset"
	"github.com/open-markdown/ccrawl/warc"
)

// urlShard writes a WARC whose response records carry these URLs.
func urlShard(t *testing.T, urls []string) string {
	var buf bytes.Buffer
	w := warc.NewWriter(&buf, true)
	w.WriteRecord(warc.Header{{Name: "WARC-Type", Value: "warcinfo"}}, []byte("isPartOf: CC-MAIN-2026-30\r\n"))
	for _, u := range urls {
		w.WriteRecord(warc.Header{{Name: "WARC-Type", Value: "response"}, {Name: "WARC-Target-URI", Value: u}, {Name: "WARC-Date", Value: "2026-07-01T10:00:00Z"}},
			[]byte("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<html></html>"))
	}
	p := filepath.Join(t.TempDir(), "urls.warc.gz")
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestRefetchUsageErrorsBeforeAnyFetch(t *testing.T) {
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer srv.Close()
	in := urlShard(t, []string{srv.URL + "/a"})
	for _, c := range [][]string{
		{"--fetch-only", "--lang", "vie"},
		{"--extractor", "wet"},
		{"--lang", "xxx"},
		{"--rate", "-1"},
	} {
		args := append([]string{"markdown", "refetch", in, "--out", t.TempDir(), "--progress", "none"}, c...)
		_, stderr, code := runCLI(t, args...)
		if code != 2 || len(strings.TrimSpace(stderr)) == 0 {
			t.Errorf("%v: exit %d %q", c, code, stderr)
		}
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("%d requests reached the server", n)
	}
}

func TestRefetchCommandEndToEnd(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt", "/gone":
			http.NotFound(w, r)
		default:
			fmt.Fprintf(w, "<html><body><article><h1>Page %s</h1><p>%s</p></article></body></html>", r.URL.Path,
				strings.Repeat("The river flows past the old mill and the village square every single morning. ", 8))
		}
	}))
	defer srv.Close()
	in := urlShard(t, []string{srv.URL + "/a", srv.URL + "/gone", srv.URL + "/b"})
	out := t.TempDir()
	stdout, stderr, code := runCLI(t, "markdown", "refetch", in, "--out", out, "--progress", "none", "--fetch-workers", "4")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	rows, err := dataset.ReadAll[dataset.RefetchRow](dataset.ShardPath(out, "CC-MAIN-2026-30", 0))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 3 || rows[1].Error != "http_status" || rows[1].Status != 404 || rows[0].Markdown == "" || rows[0].Language != "eng" {
		t.Fatalf("rows: %+v", rows)
	}
	for _, want := range []string{"refetch: 1 committed", "| 3 rows |", "phase totals: extract=", "failures: 1 total | http_status=1"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	if f, err := dataset.Open(dataset.ShardPath(out, "CC-MAIN-2026-30", 0)); err == nil {
		if s, _ := f.Metadata(dataset.MetaSchema); s != dataset.SchemaRefetch {
			t.Errorf("schema %q", s)
		}
		f.Close()
	}
}
