package fetch

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha1"
	"crypto/tls"
	"crypto/x509"
	"encoding/hex"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

func sha1hex(b []byte) string {
	s := sha1.Sum(b)
	return hex.EncodeToString(s[:])
}

// Real pages from the corpus come back byte-identical, with the right
// digest, timings, peer and the head exactly as the server wrote it.
func TestFetchCorpusPages(t *testing.T) {
	pages := corpusPages(t, 12)
	v := newVhosts(t)
	serve := func(w http.ResponseWriter, r *http.Request) {
		i, err := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/p/"))
		if err != nil || i < 0 || i >= len(pages) {
			http.NotFound(w, r)
			return
		}
		// Odd case and a repeated header: net/http's Header map would
		// canonicalise and merge them; the raw head must not.
		w.Header()["x-odd-CASE"] = []string{"kept"}
		w.Header()["Set-Cookie"] = []string{"a=1", "b=2"}
		w.Header().Set("ETag", `"e`+strconv.Itoa(i)+`"`)
		w.Header().Set("Last-Modified", "Sat, 18 Oct 2025 10:11:00 GMT")
		w.Header().Set("Content-Type", "text/html; charset=UTF-8")
		w.Write(pages[i])
	}
	// Two hosts serve identical pages: identical bytes, identical digests.
	v.handle("a.test", http.HandlerFunc(serve))
	v.handle("b.test", http.HandlerFunc(serve))
	f := newTestFetcher(t, Options{})
	ctx := context.Background()
	for i, page := range pages {
		ra := f.Fetch(ctx, v.url("a.test", fmt.Sprintf("/p/%d", i)))
		rb := f.Fetch(ctx, v.url("b.test", fmt.Sprintf("/p/%d", i)))
		for _, r := range []*Result{ra, rb} {
			if r.Err != nil {
				t.Fatalf("%s: %v (class %s)", r.URL, r.Err, r.ErrClass)
			}
			if !bytes.Equal(r.Body, page) {
				t.Fatalf("%s: body differs from corpus page (%d vs %d bytes)", r.URL, len(r.Body), len(page))
			}
			if r.Digest != sha1hex(page) || r.BodyLength != int64(len(page)) {
				t.Errorf("%s: digest %s len %d, want %s len %d", r.URL, r.Digest, r.BodyLength, sha1hex(page), len(page))
			}
			if r.Status != 200 || r.ContentType != "text/html; charset=UTF-8" || r.FinalURL != r.URL {
				t.Errorf("%s: status %d type %q final %s", r.URL, r.Status, r.ContentType, r.FinalURL)
			}
			if r.ETag != fmt.Sprintf(`"e%d"`, i) || r.LastModified != "Sat, 18 Oct 2025 10:11:00 GMT" {
				t.Errorf("%s: etag %q last-modified %q", r.URL, r.ETag, r.LastModified)
			}
			if r.IPAddress != "127.0.0.1" {
				t.Errorf("%s: IP %q", r.URL, r.IPAddress)
			}
			if r.TTFB <= 0 || r.TTFB > r.Duration {
				t.Errorf("%s: TTFB %v, Duration %v; want 0 < TTFB <= Duration", r.URL, r.TTFB, r.Duration)
			}
			if r.FetchedAt.IsZero() || r.FetchedAt.Location() != time.UTC {
				t.Errorf("%s: FetchedAt %v", r.URL, r.FetchedAt)
			}
			h := r.RespHeaders
			if !strings.HasPrefix(h, "HTTP/1.1 200 OK\r\n") || !strings.HasSuffix(h, "\r\n\r\n") ||
				!strings.Contains(h, "\r\nx-odd-CASE: kept\r\n") ||
				!strings.Contains(h, "\r\nSet-Cookie: a=1\r\nSet-Cookie: b=2\r\n") ||
				strings.Contains(h, "<html") || strings.Contains(h, "<!DOCTYPE") {
				t.Errorf("%s: raw head not as sent:\n%q", r.URL, h)
			}
		}
		if ra.Digest != rb.Digest {
			t.Errorf("identical pages on two hosts got digests %s and %s", ra.Digest, rb.Digest)
		}
	}
	// The UA names the tool and a contact URL.
	for _, l := range v.requests() {
		if !strings.HasPrefix(l.UA, "ccrawl/") || !strings.Contains(l.UA, "https://") {
			t.Fatalf("request %s%s sent UA %q", l.Host, l.Path, l.UA)
		}
	}
}

// outcomes registers the handlers the table below needs on host o.test.
func outcomesHost(v *vhosts, release <-chan struct{}) {
	mux := http.NewServeMux()
	mux.HandleFunc("/ok", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "<p>ok</p>") })
	mux.HandleFunc("/r1", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/r2", http.StatusMovedPermanently) })
	mux.HandleFunc("/r2", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, v.url("p.test", "/r3"), http.StatusFound) // cross-host hop
	})
	mux.HandleFunc("/loop1", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/loop2", http.StatusFound) })
	mux.HandleFunc("/loop2", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/loop1?x=1#frag", http.StatusFound) })
	mux.HandleFunc("/loop1b", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/loop1", http.StatusFound) })
	mux.HandleFunc("/chain/", func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/chain/"))
		if n == 0 {
			fmt.Fprint(w, "end of chain")
			return
		}
		http.Redirect(w, r, fmt.Sprintf("/chain/%d", n-1), http.StatusTemporaryRedirect)
	})
	mux.HandleFunc("/missing", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprint(w, "not here")
	})
	mux.HandleFunc("/broken", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusInternalServerError)
		fmt.Fprint(w, "oops")
	})
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	})
	mux.HandleFunc("/slowbody", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "100")
		fmt.Fprint(w, "start")
		w.(http.Flusher).Flush()
		select {
		case <-r.Context().Done():
		case <-release:
		}
	})
	mux.HandleFunc("/huge", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "3000") // declared: refused before reading
		w.Write(bytes.Repeat([]byte("x"), 3000))
	})
	mux.HandleFunc("/hugechunked", func(w http.ResponseWriter, r *http.Request) {
		for range 30 {
			w.Write(bytes.Repeat([]byte("y"), 100))
			w.(http.Flusher).Flush() // no Content-Length: the cap must trip while reading
		}
	})
	gz := func(w http.ResponseWriter, plain []byte) {
		var b bytes.Buffer
		zw := gzip.NewWriter(&b)
		zw.Write(plain)
		zw.Close()
		w.Header().Set("Content-Encoding", "gzip")
		w.Header().Set("Content-Length", strconv.Itoa(b.Len()))
		w.Write(b.Bytes())
	}
	mux.HandleFunc("/gz", func(w http.ResponseWriter, r *http.Request) { gz(w, []byte("<p>zipped</p>")) })
	mux.HandleFunc("/gzbomb", func(w http.ResponseWriter, r *http.Request) { gz(w, make([]byte, 1<<20)) })
	mux.HandleFunc("/img.png", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		w.Write([]byte("\x89PNG\r\n\x1a\nnot really"))
	})
	mux.HandleFunc("/rst", func(w http.ResponseWriter, r *http.Request) {
		c, _, _ := w.(http.Hijacker).Hijack()
		c.(*net.TCPConn).SetLinger(0) // close with RST, not FIN
		c.Close()
	})
	mux.HandleFunc("/cut", func(w http.ResponseWriter, r *http.Request) {
		c, _, _ := w.(http.Hijacker).Hijack()
		fmt.Fprint(c, "HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\nonly part")
		c.Close()
	})
	mux.HandleFunc("/badloc", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Location", "ftp://o.test/file")
		w.WriteHeader(http.StatusFound)
	})
	v.handle("o.test", mux)
	v.handle("p.test", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "final "+r.URL.Path) }))
}

func TestFetchOutcomes(t *testing.T) {
	v := newVhosts(t)
	release := make(chan struct{})
	t.Cleanup(func() { close(release) }) // runs before the server's Close
	outcomesHost(v, release)

	refused := func() string {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := l.Addr().String()
		l.Close()
		return "http://" + addr + "/"
	}()
	tlsSrv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "secret") }))
	tlsSrv.Config.ErrorLog = log.New(io.Discard, "", 0) // handshake failures are the point here
	tlsSrv.StartTLS()
	t.Cleanup(tlsSrv.Close)

	base := Options{Timeout: 2 * time.Second, MaxBodyBytes: 1000}
	tests := []struct {
		name       string
		url        string
		opts       func(*Options)
		wantClass  string
		wantStatus int
		wantFinal  string
		wantBody   string
		wantErr    string
		wantHead   string
	}{
		{name: "ok", url: v.url("o.test", "/ok"), wantStatus: 200, wantBody: "<p>ok</p>"},
		{name: "redirect chain across hosts", url: v.url("o.test", "/r1"), wantStatus: 200,
			wantFinal: v.url("p.test", "/r3"), wantBody: "final /r3"},
		{name: "five redirects is the limit", url: v.url("o.test", "/chain/5"), wantStatus: 200,
			wantFinal: v.url("o.test", "/chain/0"), wantBody: "end of chain"},
		{name: "six redirects is too many", url: v.url("o.test", "/chain/6"), wantClass: ClassOther,
			wantStatus: 307, wantFinal: v.url("o.test", "/chain/1"), wantErr: "stopped after 5 redirects"},
		{name: "custom redirect limit", url: v.url("o.test", "/chain/3"), opts: func(o *Options) { o.MaxRedirects = 2 },
			wantClass: ClassOther, wantStatus: 307, wantErr: "stopped after 2 redirects"},
		{name: "no redirects followed", url: v.url("o.test", "/r1"), opts: func(o *Options) { o.MaxRedirects = -1 },
			wantClass: ClassHTTPStatus, wantStatus: 301, wantFinal: v.url("o.test", "/r1")},
		{name: "redirect loop", url: v.url("o.test", "/loop1"), wantClass: ClassOther, wantStatus: 302,
			wantErr: "redirect loop"},
		{name: "redirect loop entered later", url: v.url("o.test", "/loop1b"), wantClass: ClassOther, wantStatus: 302, wantErr: "redirect loop"},
		{name: "redirect to non-http scheme", url: v.url("o.test", "/badloc"), wantClass: ClassOther, wantStatus: 302,
			wantErr: "bad redirect Location"},
		{name: "404 keeps body", url: v.url("o.test", "/missing"), wantClass: ClassHTTPStatus, wantStatus: 404, wantBody: "not here"},
		{name: "500 keeps body", url: v.url("o.test", "/broken"), wantClass: ClassHTTPStatus, wantStatus: 500, wantBody: "oops"},
		{name: "slow head", url: v.url("o.test", "/slow"), opts: func(o *Options) { o.Timeout = 300 * time.Millisecond },
			wantClass: ClassTimeout},
		{name: "slow body", url: v.url("o.test", "/slowbody"), opts: func(o *Options) { o.Timeout = 300 * time.Millisecond },
			wantClass: ClassTimeout, wantStatus: 200},
		{name: "refused", url: refused, wantClass: ClassRefused},
		{name: "refused without robots", url: refused, opts: func(o *Options) { o.IgnoreRobots = true }, wantClass: ClassRefused},
		{name: "dns failure", url: "http://nx.test/", wantClass: ClassDNS},
		{name: "dns failure without robots", url: "http://nx.test/", opts: func(o *Options) { o.IgnoreRobots = true }, wantClass: ClassDNS},
		{name: "too large with length", url: v.url("o.test", "/huge"), wantClass: ClassTooLarge, wantStatus: 200},
		{name: "too large chunked", url: v.url("o.test", "/hugechunked"), wantClass: ClassTooLarge, wantStatus: 200},
		{name: "cap raised", url: v.url("o.test", "/huge"), opts: func(o *Options) { o.MaxBodyBytes = 3000 },
			wantStatus: 200, wantBody: strings.Repeat("x", 3000)},
		{name: "gzip decoded", url: v.url("o.test", "/gz"), wantStatus: 200, wantBody: "<p>zipped</p>", wantHead: "Content-Encoding: gzip"},
		{name: "cap applies after decoding", url: v.url("o.test", "/gzbomb"), wantClass: ClassTooLarge, wantStatus: 200},
		{name: "non-HTML passed through", url: v.url("o.test", "/img.png"), wantStatus: 200, wantBody: "\x89PNG\r\n\x1a\nnot really"},
		{name: "reset", url: v.url("o.test", "/rst"), wantClass: ClassReset},
		{name: "cut mid-body", url: v.url("o.test", "/cut"), wantClass: ClassReset, wantStatus: 200, wantBody: "only part"},
		{name: "untrusted TLS", url: tlsSrv.URL + "/", wantClass: ClassTLS},
		{name: "trusted TLS", url: tlsSrv.URL + "/", opts: func(o *Options) { o.TLSConfig = trusting(tlsSrv) },
			wantStatus: 200, wantBody: "secret"},
		{name: "untrusted TLS without robots", url: tlsSrv.URL + "/", opts: func(o *Options) { o.IgnoreRobots = true }, wantClass: ClassTLS},
		{name: "not a URL", url: "::nope", wantClass: ClassOther, wantErr: "bad URL"},
		{name: "not http", url: "ftp://o.test/", wantClass: ClassOther, wantErr: "scheme"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			opts := base
			if tc.opts != nil {
				tc.opts(&opts)
			}
			f := newTestFetcher(t, opts)
			r := f.Fetch(context.Background(), tc.url)
			if r.ErrClass != tc.wantClass {
				t.Fatalf("class %q (err %v), want %q", r.ErrClass, r.Err, tc.wantClass)
			}
			if (r.Err == nil) != (tc.wantClass == "") {
				t.Fatalf("err %v with class %q", r.Err, r.ErrClass)
			}
			if r.Err != nil && strings.Contains(r.Err.Error(), "\n") {
				t.Errorf("error is not one line: %q", r.Err)
			}
			if tc.wantErr != "" && !strings.Contains(r.Err.Error(), tc.wantErr) {
				t.Errorf("err %q does not mention %q", r.Err, tc.wantErr)
			}
			if r.Status != tc.wantStatus {
				t.Errorf("status %d, want %d", r.Status, tc.wantStatus)
			}
			want := tc.wantFinal
			if want == "" && r.Status != 0 && tc.wantErr == "" {
				want = tc.url
			}
			if want != "" && r.FinalURL != want {
				t.Errorf("final URL %s, want %s", r.FinalURL, want)
			}
			if tc.wantBody != "" && string(r.Body) != tc.wantBody {
				t.Errorf("body %q, want %q", r.Body, tc.wantBody)
			}
			if tc.wantClass == "" || tc.wantClass == ClassHTTPStatus {
				if r.Digest != sha1hex(r.Body) {
					t.Errorf("digest %s, want sha1 of body %s", r.Digest, sha1hex(r.Body))
				}
			} else if r.Digest != "" {
				t.Errorf("digest %s set on a failed fetch", r.Digest)
			}
			if tc.wantClass == ClassTooLarge && (int64(len(r.Body)) > opts.MaxBodyBytes || r.BodyLength <= opts.MaxBodyBytes) {
				t.Errorf("too_large: kept %d bytes, BodyLength %d, cap %d", len(r.Body), r.BodyLength, opts.MaxBodyBytes)
			}
			if !strings.Contains(r.RespHeaders, tc.wantHead) {
				t.Errorf("RespHeaders %q lacks %q", r.RespHeaders, tc.wantHead)
			}
			if r.Status != 0 && !strings.HasPrefix(r.RespHeaders, "HTTP/1.1 "+strconv.Itoa(r.Status)+" ") {
				t.Errorf("RespHeaders %q does not start with the status line", r.RespHeaders)
			}
			if r.Status != 0 && (r.TTFB <= 0 || r.TTFB > r.Duration) {
				t.Errorf("TTFB %v, Duration %v", r.TTFB, r.Duration)
			}
		})
	}
}

// trusting is a client TLS config that trusts srv's self-signed certificate.
func trusting(srv *httptest.Server) *tls.Config {
	pool := x509.NewCertPool()
	pool.AddCert(srv.Certificate())
	return &tls.Config{RootCAs: pool}
}

func TestRobots(t *testing.T) {
	v := newVhosts(t)
	page := func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "page "+r.URL.Path) }
	robotsHost := func(status int, body string) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/robots.txt" {
				w.WriteHeader(status)
				fmt.Fprint(w, body)
				return
			}
			page(w, r)
		})
	}
	v.handle("rules.test", robotsHost(200, "User-agent: *\nDisallow: /\n\nUser-agent: ccrawl\nDisallow: /private\nDisallow: /*?session=\nAllow: /\n"))
	v.handle("others.test", robotsHost(200, "User-agent: otherbot\nDisallow: /\n"))
	v.handle("all.test", robotsHost(200, "User-agent: *\nDisallow: /\n"))
	v.handle("gone.test", robotsHost(404, "no robots here"))
	v.handle("down.test", robotsHost(503, "try later"))
	v.handle("moved.test", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.Redirect(w, r, v.url("rules.test", "/robots.txt"), http.StatusMovedPermanently)
			return
		}
		page(w, r)
	}))

	tests := []struct {
		host, path string
		ignore     bool
		wantClass  string
	}{
		{"rules.test", "/public", false, ""},
		{"rules.test", "/private/x", false, ClassRobots},
		{"rules.test", "/list?session=9", false, ClassRobots},
		{"rules.test", "/private/x", true, ""},
		{"others.test", "/any", false, ""},
		{"all.test", "/any", false, ClassRobots},
		{"gone.test", "/any", false, ""},
		{"down.test", "/any", false, ClassRobots},
		{"moved.test", "/private/y", false, ClassRobots},
		{"moved.test", "/fine", false, ""},
	}
	for _, tc := range tests {
		name := tc.host + tc.path
		if tc.ignore {
			name += " ignoring robots"
		}
		t.Run(name, func(t *testing.T) {
			f := newTestFetcher(t, Options{IgnoreRobots: tc.ignore})
			before := v.count(tc.host, tc.path)
			r := f.Fetch(context.Background(), v.url(tc.host, tc.path))
			if r.ErrClass != tc.wantClass {
				t.Fatalf("class %q (err %v), want %q", r.ErrClass, r.Err, tc.wantClass)
			}
			got := v.count(tc.host, tc.path) - before
			want := 1
			if tc.wantClass == ClassRobots {
				want = 0 // a disallowed page is never requested
			}
			if got != want {
				t.Errorf("server saw %d requests for %s, want %d", got, tc.path, want)
			}
		})
	}

	// One Fetcher, many concurrent fetches on one host: robots.txt once.
	f := newTestFetcher(t, Options{PerHostConcurrency: 4})
	before := v.count("rules.test", "/robots.txt")
	logged := len(v.requests())
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			path := fmt.Sprintf("/public/%d", i)
			if i%2 == 1 {
				path = fmt.Sprintf("/private/%d", i)
			}
			f.Fetch(context.Background(), v.url("rules.test", path))
		}()
	}
	wg.Wait()
	if n := v.count("rules.test", "/robots.txt") - before; n != 1 {
		t.Errorf("robots.txt fetched %d times for one host, want 1", n)
	}
	for _, l := range v.requests()[logged:] {
		if l.Host == "rules.test" && strings.HasPrefix(l.Path, "/private/") {
			t.Errorf("disallowed %s was requested", l.Path)
		}
	}
}

// Request starts on one host are spaced by at least 1/Rate (robots.txt
// included), checked on the server's own clock with a generous tolerance.
func TestRatePerHost(t *testing.T) {
	v := newVhosts(t)
	v.handle("rate.test", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "x") }))
	v.handle("free.test", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "x") }))
	// A low rate keeps the expected gap (200ms) far above the scheduling
	// jitter of a loaded machine between our token and the server's clock.
	const rps = 5.0
	f := newTestFetcher(t, Options{Rate: rps, PerHostConcurrency: 4})
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if r := f.Fetch(context.Background(), v.url("rate.test", fmt.Sprintf("/%d", i))); r.Err != nil {
				t.Error(r.Err)
			}
		}()
	}
	wg.Wait()
	var times []time.Time
	for _, l := range v.requests() {
		if l.Host == "rate.test" {
			times = append(times, l.At)
		}
	}
	if len(times) != 9 {
		t.Fatalf("server saw %d requests on rate.test, want 9 (robots.txt + 8 pages)", len(times))
	}
	minGap := time.Duration(float64(time.Second) / rps)
	for i := 1; i < len(times); i++ {
		if gap := times[i].Sub(times[i-1]); gap < minGap/2 {
			t.Errorf("requests %d and %d on one host only %v apart; rate %g/s means >= %v", i-1, i, gap, rps, minGap)
		}
	}
	if span, want := times[len(times)-1].Sub(times[0]), time.Duration(len(times)-1)*minGap*9/10; span < want {
		t.Errorf("%d requests spanned %v, want >= %v at %g/s", len(times), span, want, rps)
	}
}

// At most PerHostConcurrency requests run at once on a host, over at most
// that many reused connections.
func TestPerHostConcurrencyAndReuse(t *testing.T) {
	v := newVhosts(t)
	var mu sync.Mutex
	inFlight, maxInFlight := 0, 0
	v.handle("busy.test", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		inFlight++
		maxInFlight = max(maxInFlight, inFlight)
		mu.Unlock()
		time.Sleep(10 * time.Millisecond)
		mu.Lock()
		inFlight--
		mu.Unlock()
		fmt.Fprint(w, "busy")
	}))
	const perHost = 3
	f := newTestFetcher(t, Options{PerHostConcurrency: perHost})
	var wg sync.WaitGroup
	for i := range 30 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if r := f.Fetch(context.Background(), v.url("busy.test", fmt.Sprintf("/%d", i))); r.Err != nil {
				t.Error(r.Err)
			}
		}()
	}
	wg.Wait()
	if maxInFlight > perHost {
		t.Errorf("%d requests in flight on one host, limit %d", maxInFlight, perHost)
	}
	conns := map[string]bool{}
	for _, l := range v.requests() {
		if l.Host == "busy.test" {
			conns[l.Remote] = true
		}
	}
	if len(conns) > perHost {
		t.Errorf("31 requests used %d connections, want <= %d (keep-alive reuse)", len(conns), perHost)
	}
}

func TestNewRejectsBadOptions(t *testing.T) {
	for _, o := range []Options{
		{Workers: -1}, {PerHostConcurrency: -2}, {Rate: -1}, {Timeout: -time.Second}, {MaxBodyBytes: -5},
	} {
		if _, err := New(o); err == nil {
			t.Errorf("New(%+v) accepted a negative value", o)
		}
	}
	f, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := f.Options()
	if got.Workers != DefaultWorkers || got.MaxRedirects != DefaultMaxRedirects || got.UserAgent != DefaultUserAgent ||
		got.Timeout != DefaultTimeout || got.MaxBodyBytes != DefaultMaxBodyBytes || got.PerHostConcurrency != DefaultPerHostConcurrency {
		t.Errorf("defaults not applied: %+v", got)
	}
}

func TestProductToken(t *testing.T) {
	for ua, want := range map[string]string{
		DefaultUserAgent:                 "ccrawl",
		"MyBot/2.1 (+https://x.example)": "MyBot",
		"plain":                          "plain",
		"":                               "ccrawl",
		"Spacey Bot (https://b.example)": "Spacey",
	} {
		if got := productToken(ua); got != want {
			t.Errorf("productToken(%q) = %q, want %q", ua, got, want)
		}
	}
}

// A host whose robots.txt cannot be reached costs one connection attempt,
// not one per URL; every URL still reports the network class.
func TestDeadHostDialedOnce(t *testing.T) {
	var mu sync.Mutex
	dials := map[string]int{}
	f := newTestFetcher(t, Options{
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			mu.Lock()
			dials[addr]++
			mu.Unlock()
			return nil, &net.OpError{Op: "dial", Net: network, Err: syscall.ECONNREFUSED}
		},
	})
	for i := range 5 {
		r := f.Fetch(context.Background(), fmt.Sprintf("http://dead.test:81/%d", i))
		if r.ErrClass != ClassRefused {
			t.Fatalf("url %d: class %q (%v), want refused", i, r.ErrClass, r.Err)
		}
	}
	if len(dials) != 1 || dials["127.0.0.1:81"] != 1 {
		t.Errorf("dials %v, want exactly one to 127.0.0.1:81 (resolved by LookupHost)", dials)
	}
}

// Without LookupHost the DialContext hook gets the unresolved host:port and
// can route any name to a loopback server.
func TestDialHookWithoutResolver(t *testing.T) {
	v := newVhosts(t)
	v.handle("anything.example", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "routed") }))
	var seen []string
	f, err := New(Options{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		seen = append(seen, addr)
		return (&net.Dialer{}).DialContext(ctx, network, v.srv.Listener.Addr().String())
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer f.CloseIdleConnections()
	r := f.Fetch(context.Background(), v.url("anything.example", "/x"))
	if r.Err != nil || string(r.Body) != "routed" {
		t.Fatalf("got %q, %v", r.Body, r.Err)
	}
	if len(seen) == 0 || seen[0] != "anything.example:"+v.port {
		t.Errorf("dial hook saw %v, want the unresolved host:port", seen)
	}
}
