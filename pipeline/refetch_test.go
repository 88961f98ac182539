package pipeline

import (
	"bytes"
	"context"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/open-markdown/ccrawl/dataset"
	"github.com/open-markdown/ccrawl/extract"
	"github.com/open-markdown/ccrawl/fetch"
	"github.com/open-markdown/ccrawl/warc"
)

// page is an HTML page long enough to extract.
func page(title, body string) string {
	return "<html><head><title>" + title + "</title></head><body><nav><a href='/'>Home</a></nav><article><h1>" + title + "</h1><p>" +
		strings.Repeat(body+" ", 12) + "</p><p>" + strings.Repeat("The second paragraph repeats the point about "+body+". ", 6) + "</p></article><footer>Footer text</footer></body></html>"
}

// shardOf writes a WARC whose response records carry these URLs.
func shardOf(t *testing.T, urls []string) []byte {
	var buf bytes.Buffer
	w := warc.NewWriter(&buf, true)
	w.WriteRecord(warc.Header{{Name: "WARC-Type", Value: "warcinfo"}}, []byte("isPartOf: CC-MAIN-2026-30\r\n"))
	for _, u := range urls {
		block := []byte("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<html>old</html>")
		if err := w.WriteRecord(warc.Header{{Name: "WARC-Type", Value: "response"}, {Name: "WARC-Target-URI", Value: u}, {Name: "WARC-Date", Value: "2026-07-01T10:00:00Z"}}, block); err != nil {
			t.Fatal(err)
		}
	}
	return buf.Bytes()
}

// vhosts maps *.test names to one loopback server, "nx.test" fails DNS.
type vhosts struct {
	srv  *httptest.Server
	mu   sync.Mutex
	hits map[string][]time.Time
}

func newVhosts(t *testing.T, h func(w http.ResponseWriter, r *http.Request)) *vhosts {
	v := &vhosts{hits: map[string][]time.Time{}}
	v.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		v.mu.Lock()
		v.hits[r.Host+r.URL.Path] = append(v.hits[r.Host+r.URL.Path], time.Now())
		v.mu.Unlock()
		h(w, r)
	}))
	t.Cleanup(v.srv.Close)
	return v
}

func (v *vhosts) options(o fetch.Options) fetch.Options {
	addr := v.srv.Listener.Addr().String()
	o.LookupHost = func(ctx context.Context, host string) ([]string, error) {
		if strings.HasPrefix(host, "nx.") {
			return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
		}
		return []string{"127.0.0.1"}, nil
	}
	o.DialContext = func(ctx context.Context, network, a string) (net.Conn, error) {
		_, port, _ := net.SplitHostPort(a)
		if port == "1" { // the refused port
			return (&net.Dialer{}).DialContext(ctx, network, "127.0.0.1:1")
		}
		return (&net.Dialer{}).DialContext(ctx, network, addr)
	}
	return o
}

func refetchRun(t *testing.T, cfg *RefetchConfig, urls []string) (ShardResult, []dataset.RefetchRow) {
	t.Helper()
	cfg.OutDir = t.TempDir()
	if cfg.Extractor == nil && !cfg.FetchOnly {
		ex, err := extract.New("trafilatura")
		if err != nil {
			t.Fatal(err)
		}
		cfg.Extractor = ex
	}
	pool := NewPool(2)
	defer pool.Close()
	r := RefetchShard(context.Background(), cfg, pool, bytes.NewReader(shardOf(t, urls)), Shard{Number: 7, Name: "test"})
	if r.Status != StatusOK {
		t.Fatalf("status %s: %v", r.Status, r.Err)
	}
	rows, err := dataset.ReadAll[dataset.RefetchRow](r.Path)
	if err != nil {
		t.Fatal(err)
	}
	return r, rows
}

func TestRefetchCases(t *testing.T) {
	same := page("Same", "identical text about rivers and bridges")
	v := newVhosts(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			if r.Host == "robots.test" {
				fmt.Fprint(w, "User-agent: *\nDisallow: /private\n")
				return
			}
			http.NotFound(w, r)
		case "/same":
			fmt.Fprint(w, same)
		case "/a":
			fmt.Fprint(w, page("Alpha", "alpha pages speak about mountains"))
		case "/r1":
			http.Redirect(w, r, "/r2", http.StatusMovedPermanently)
		case "/r2":
			http.Redirect(w, r, "/a", http.StatusFound)
		case "/loop":
			http.Redirect(w, r, "/loop", http.StatusFound)
		case "/missing":
			http.NotFound(w, r)
		case "/boom":
			http.Error(w, "boom", 500)
		case "/slow":
			time.Sleep(2 * time.Second)
			fmt.Fprint(w, same)
		case "/huge":
			w.Header().Set("Content-Type", "text/html")
			w.Write(bytes.Repeat([]byte("x"), 300<<10))
		case "/img":
			w.Header().Set("Content-Type", "image/png")
			w.Write([]byte("\x89PNG\r\n\x1a\nnot really"))
		case "/private":
			t.Errorf("robots-disallowed page was requested")
		}
	})
	f, err := fetch.New(v.options(fetch.Options{Workers: 8, Timeout: 500 * time.Millisecond, MaxBodyBytes: 100 << 10}))
	if err != nil {
		t.Fatal(err)
	}
	urls := []string{
		"http://a.test/same", "http://b.test/same", "http://c.test/same",
		"http://a.test/a", "http://a.test/r1", "http://a.test/loop", "http://a.test/missing", "http://a.test/boom",
		"http://slow.test/slow", "http://refused.test:1/", "http://nx.test/", "http://a.test/huge",
		"http://robots.test/private", "http://a.test/img",
	}
	want := map[string]struct {
		class  string
		status int32
	}{
		"http://a.test/same": {"", 200}, "http://b.test/same": {"", 200}, "http://c.test/same": {"", 200},
		"http://a.test/a": {"", 200}, "http://a.test/r1": {"", 200}, "http://a.test/loop": {"other", 302},
		"http://a.test/missing": {"http_status", 404}, "http://a.test/boom": {"http_status", 500},
		"http://slow.test/slow": {"timeout", 0}, "http://refused.test:1/": {"refused", 0}, "http://nx.test/": {"dns", 0},
		"http://a.test/huge": {"too_large", 200}, "http://robots.test/private": {"robots", 0}, "http://a.test/img": {"", 200},
	}
	res, rows := refetchRun(t, &RefetchConfig{Fetcher: f}, urls)
	if len(rows) != len(urls) {
		t.Fatalf("%d rows for %d URLs", len(rows), len(urls))
	}
	for i, r := range rows {
		if r.URL != urls[i] {
			t.Fatalf("row %d is %s, want %s (shard order)", i, r.URL, urls[i])
		}
		w := want[r.URL]
		if r.Error != w.class {
			t.Errorf("%s: error %q, want %q", r.URL, r.Error, w.class)
		}
		if w.status != 0 && r.Status != w.status {
			t.Errorf("%s: status %d, want %d", r.URL, r.Status, w.status)
		}
		if r.DocID != dataset.DocID(r.URL) || r.CrawlID != "CC-MAIN-2026-30" || r.CrawlDate != "2026-07-01" {
			t.Errorf("%s: keys %s %s %s", r.URL, r.DocID, r.CrawlID, r.CrawlDate)
		}
		if r.Error == "" {
			if r.TTFBMS > r.FetchDurationMS || r.FetchedAt == 0 || r.RespHeaders == "" || !strings.HasPrefix(r.RespHeaders, "HTTP/1.1 200") {
				t.Errorf("%s: timings/headers ttfb=%d dur=%d at=%d %q", r.URL, r.TTFBMS, r.FetchDurationMS, r.FetchedAt, r.RespHeaders)
			}
		}
	}
	byURL := map[string]dataset.RefetchRow{}
	for _, r := range rows {
		byURL[r.URL] = r
	}
	if got := byURL["http://a.test/r1"].FinalURL; got != "http://a.test/a" {
		t.Errorf("redirect chain final_url %q", got)
	}
	sum := sha1.Sum([]byte(same))
	if got := byURL["http://b.test/same"].Digest; got != hex.EncodeToString(sum[:]) {
		t.Errorf("digest %s", got)
	}
	if md := byURL["http://a.test/a"].Markdown; !strings.Contains(md, "mountains") || byURL["http://a.test/a"].Simhash == 0 {
		t.Errorf("no markdown/simhash for a good page: %q", md)
	}
	if byURL["http://a.test/img"].Markdown != "" || byURL["http://a.test/img"].HTMLLength != 0 {
		t.Errorf("non-HTML converted")
	}
	if res.Stats.FetchFailed["dns"] != 1 || res.Stats.FetchFailed["robots"] != 1 || res.Stats.Rows != int64(len(rows)) {
		t.Errorf("stats %+v", res.Stats)
	}
}

func TestRefetchDedupKeepsFailures(t *testing.T) {
	same := page("Same", "identical text about rivers and bridges")
	v := newVhosts(t, func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/robots.txt" || strings.HasPrefix(r.URL.Path, "/gone"):
			http.NotFound(w, r)
		case strings.HasPrefix(r.URL.Path, "/same"):
			fmt.Fprint(w, same)
		default:
			fmt.Fprint(w, page(r.URL.Path, "a distinct page about "+r.URL.Path))
		}
	})
	f, _ := fetch.New(v.options(fetch.Options{Workers: 4}))
	urls := []string{"http://a.test/same1", "http://a.test/one", "http://b.test/same2", "http://a.test/two", "http://c.test/same3", "http://a.test/three",
		"http://a.test/gone1", "http://b.test/gone2", "http://nx.test/x", "http://nx.test/y"}
	res, rows := refetchRun(t, &RefetchConfig{Fetcher: f, DedupDigest: true}, urls)
	content, failures := 0, 0
	for _, r := range rows {
		if r.Error == "" {
			content++
		} else {
			failures++
		}
	}
	if content != 4 || failures != 4 {
		t.Errorf("%d content rows, %d failure rows; want 4 and 4", content, failures)
	}
	if res.Stats.Rows != int64(len(rows)) || res.Stats.DigestDropped != 2 {
		t.Errorf("stats rows=%d dropped=%d, file has %d", res.Stats.Rows, res.Stats.DigestDropped, len(rows))
	}
}

func TestRefetchRateLimitPerHost(t *testing.T) {
	v := newVhosts(t, func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, page("p", "rate limited page"))
	})
	f, _ := fetch.New(v.options(fetch.Options{Workers: 8, Rate: 10, IgnoreRobots: true}))
	var urls []string
	for i := 0; i < 6; i++ {
		urls = append(urls, fmt.Sprintf("http://one.test/p%d", i))
	}
	refetchRun(t, &RefetchConfig{Fetcher: f, FetchOnly: true}, urls)
	var times []time.Time
	v.mu.Lock()
	for k, ts := range v.hits {
		if strings.HasPrefix(k, "one.test/p") {
			times = append(times, ts...)
		}
	}
	v.mu.Unlock()
	if len(times) != 6 {
		t.Fatalf("%d requests", len(times))
	}
	// 6 requests at 10/s with burst 1 span at least 5 intervals of 100 ms;
	// allow generous slack for scheduling, none for bursts.
	first, last := times[0], times[0]
	for _, ts := range times {
		if ts.Before(first) {
			first = ts
		}
		if ts.After(last) {
			last = ts
		}
	}
	if span := last.Sub(first); span < 400*time.Millisecond {
		t.Errorf("6 requests to one host within %v at --rate 10", span)
	}
}

func TestRefetchFetchOnlyStoresHTML(t *testing.T) {
	v := newVhosts(t, func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "<html><body>raw page</body></html>") })
	f, _ := fetch.New(v.options(fetch.Options{Workers: 2, IgnoreRobots: true}))
	cfg := &RefetchConfig{Fetcher: f, FetchOnly: true}
	res, _ := refetchRun(t, cfg, []string{"http://a.test/x"})
	rows, err := dataset.ReadAll[dataset.RefetchRowHTML](res.Path)
	if err != nil || len(rows) != 1 || rows[0].HTML != "<html><body>raw page</body></html>" || rows[0].Markdown != "" {
		t.Fatalf("%v %+v", err, rows)
	}
	if _, err := os.Stat(filepath.Join(cfg.OutDir, "data", "crawl=CC-MAIN-2026-30", "000007.parquet")); err != nil {
		t.Fatal(err)
	}
}
