package commoncrawl

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/open-markdown/ccrawl/commoncrawl/cctest"
)

func TestManifestFetchAndCache(t *testing.T) {
	srv := cctest.NewServer(t, cctest.Config{
		Crawl:  "CC-MAIN-2025-43",
		Shards: []string{cctest.Corpus(t, "small.warc.gz"), cctest.Corpus(t, "small-b.warc.gz"), cctest.Corpus(t, "small-c.warc.gz")},
		WET:    []string{cctest.Corpus(t, "medium.warc.gz")},
	})
	c, _ := testClient(t, srv)
	ctx := context.Background()

	got, err := c.Manifest(ctx, "CC-MAIN-2025-43", "warc")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, srv.Paths) {
		t.Fatalf("Manifest = %q, want %q", got, srv.Paths)
	}
	for _, p := range got {
		if CrawlFromName(p) != "CC-MAIN-2025-43" {
			t.Errorf("manifest path %q does not carry the crawl id", p)
		}
	}
	cached := filepath.Join(c.CacheDir, "CC-MAIN-2025-43", "warc.paths.gz")
	if _, err := os.Stat(cached); err != nil {
		t.Fatalf("manifest not cached: %v", err)
	}

	again, err := c.Manifest(ctx, "CC-MAIN-2025-43", "warc")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(again, got) {
		t.Fatalf("cached manifest = %q, want %q", again, got)
	}
	if n := srv.Requests(srv.ManifestPath); n != 1 {
		t.Fatalf("manifest requested %d times, want 1 (second call should hit the cache)", n)
	}

	// A damaged cache is refetched, not trusted.
	if err := os.WriteFile(cached, []byte("garbage"), 0o644); err != nil {
		t.Fatal(err)
	}
	if again, err = c.Manifest(ctx, "CC-MAIN-2025-43", "warc"); err != nil || !slices.Equal(again, got) {
		t.Fatalf("after damaging the cache: %q, %v", again, err)
	}
	if n := srv.Requests(srv.ManifestPath); n != 2 {
		t.Fatalf("manifest requested %d times, want 2", n)
	}

	wet, err := c.Manifest(ctx, "CC-MAIN-2025-43", "wet")
	if err != nil || !slices.Equal(wet, srv.WETPaths) {
		t.Fatalf("wet manifest = %q, %v; want %q", wet, err, srv.WETPaths)
	}

	// Without a cache every call fetches.
	c.CacheDir = ""
	for range 2 {
		if _, err := c.Manifest(ctx, "CC-MAIN-2025-43", "warc"); err != nil {
			t.Fatal(err)
		}
	}
	if n := srv.Requests(srv.ManifestPath); n != 4 {
		t.Fatalf("manifest requested %d times without a cache, want 4", n)
	}
}

func TestManifestRetriesAndErrors(t *testing.T) {
	srv := cctest.NewServer(t, cctest.Config{Shards: []string{cctest.Corpus(t, "small.warc.gz")}})
	c, rec := testClient(t, srv)
	ctx := context.Background()

	srv.Fail(srv.ManifestPath, cctest.Fault{Kind: cctest.Unavailable, Times: 2, RetryAfter: "3"})
	got, err := c.Manifest(ctx, srv.Crawl, "warc")
	if err != nil || !slices.Equal(got, srv.Paths) {
		t.Fatalf("Manifest after two 503s = %q, %v", got, err)
	}
	if d := rec.all(); !slices.Equal(d, []time.Duration{3 * time.Second, 3 * time.Second}) {
		t.Fatalf("waits = %v, want two of 3s (Retry-After)", d)
	}

	// A manifest fetch that hangs becomes a retry after StallTimeout.
	c.StallTimeout = 200 * time.Millisecond
	c.CacheDir = ""
	srv.Fail(srv.ManifestPath, cctest.Fault{Kind: cctest.Slow, Times: 1, After: 10, Delay: time.Hour})
	before := srv.Requests(srv.ManifestPath)
	if got, err = c.Manifest(ctx, srv.Crawl, "warc"); err != nil || !slices.Equal(got, srv.Paths) {
		t.Fatalf("Manifest after a stall = %q, %v", got, err)
	}
	if n := srv.Requests(srv.ManifestPath) - before; n != 2 {
		t.Fatalf("%d manifest requests around a stall, want 2", n)
	}

	tests := []struct {
		crawl, kind string
		want        error  // matched with errors.Is when set
		msg         string // else a substring of the message
	}{
		{crawl: srv.Crawl, kind: "wet", want: ErrNotFound}, // the server has no WET files
		{crawl: "CC-MAIN-1999-01", kind: "warc", want: ErrNotFound},
		{crawl: srv.Crawl, kind: "parquet", msg: "unknown kind"},
		{crawl: "../etc", kind: "warc", msg: "invalid crawl id"},
		{crawl: "", kind: "warc", msg: "invalid crawl id"},
	}
	for _, tt := range tests {
		_, err := c.Manifest(ctx, tt.crawl, tt.kind)
		if err == nil || (tt.want != nil && !errors.Is(err, tt.want)) || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("Manifest(%q, %q) error = %v, want %v %q", tt.crawl, tt.kind, err, tt.want, tt.msg)
		}
	}
	if n := srv.Requests("crawl-data/CC-MAIN-1999-01/warc.paths.gz"); n != 1 {
		t.Errorf("missing manifest requested %d times, want 1 (404 is not retried)", n)
	}
}

func TestLatestCrawl(t *testing.T) {
	srv := cctest.NewServer(t, cctest.Config{Collinfo: []cctest.Collection{
		{ID: "CC-MAIN-2026-30", Name: "July 2026 Index"},
		{ID: "CC-MAIN-2026-26", Name: "June 2026 Index"},
	}})
	c, _ := testClient(t, srv)
	srv.Fail("collinfo.json", cctest.Fault{Kind: cctest.Reset, Times: 1, After: 10})
	got, err := c.LatestCrawl(context.Background())
	if err != nil || got != "CC-MAIN-2026-30" {
		t.Fatalf("LatestCrawl = %q, %v; want CC-MAIN-2026-30", got, err)
	}
	if n := srv.Requests("collinfo.json"); n != 2 {
		t.Fatalf("collinfo.json requested %d times, want 2 (one reset, one retry)", n)
	}

	empty := cctest.NewServer(t, cctest.Config{Collinfo: []cctest.Collection{}})
	c, _ = testClient(t, empty)
	if _, err := c.LatestCrawl(context.Background()); err == nil || !strings.Contains(err.Error(), "no crawls") {
		t.Fatalf("LatestCrawl on an empty collinfo.json: %v", err)
	}
}

func TestParseCollinfo(t *testing.T) {
	tests := []struct{ in, want, err string }{
		{`[{"id":"CC-MAIN-2026-30","name":"x"},{"id":"CC-MAIN-2026-26"}]`, "CC-MAIN-2026-30", ""},
		{`[]`, "", "no crawls"},
		{`[{"name":"x"}]`, "", "no crawls"},
		{`{"id":"CC-MAIN-2026-30"}`, "", "decode"},
		{`[{"id":"../x"}]`, "", "unusable"},
	}
	for _, tt := range tests {
		got, err := parseCollinfo([]byte(tt.in))
		if got != tt.want || (tt.err == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tt.err)) {
			t.Errorf("parseCollinfo(%s) = %q, %v; want %q, %q", tt.in, got, err, tt.want, tt.err)
		}
	}
}

func gz(s string) []byte {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte(s))
	zw.Close()
	return b.Bytes()
}

func TestParseManifest(t *testing.T) {
	tests := []struct {
		name string
		in   []byte
		want []string
		err  string
	}{
		{"plain", gz("a/b.warc.gz\nc/d.warc.gz\n"), []string{"a/b.warc.gz", "c/d.warc.gz"}, ""},
		{"crlf and blanks", gz("a/b.warc.gz\r\n\r\n  c/d.warc.gz"), []string{"a/b.warc.gz", "c/d.warc.gz"}, ""},
		{"empty", gz("\n\n"), nil, "no files"},
		{"not gzip", []byte("a/b.warc.gz\n"), nil, "not a gzip"},
		{"truncated gzip", gz("a/b.warc.gz\nc/d.warc.gz\n")[:20], nil, "after"},
		{"absolute", gz("/etc/passwd\n"), nil, "unsafe"},
		{"dotdot", gz("a/../../x\n"), nil, "unsafe"},
	}
	for _, tt := range tests {
		got, err := parseManifest(bytes.NewReader(tt.in))
		if !slices.Equal(got, tt.want) || (tt.err == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tt.err)) {
			t.Errorf("%s: parseManifest = %q, %v; want %q, %q", tt.name, got, err, tt.want, tt.err)
		}
	}
}

func FuzzParseManifest(f *testing.F) {
	f.Add(gz("crawl-data/CC-MAIN-2025-43/segments/1/warc/a.warc.gz\n"))
	f.Add(gz(""))
	f.Add([]byte("not gzip"))
	f.Fuzz(func(t *testing.T, raw []byte) {
		paths, err := parseManifest(bytes.NewReader(raw))
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("multi-line error %q", err)
			}
			return
		}
		for _, p := range paths {
			if p == "" || strings.HasPrefix(p, "/") || strings.Contains(p, "..") {
				t.Fatalf("parseManifest let through %q", p)
			}
		}
	})
}
