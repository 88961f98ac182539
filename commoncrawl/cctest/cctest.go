// Package cctest is a stand-in for Common Crawl's data and index servers, for
// tests anywhere in ccrawl. It serves local files as a crawl's shards (with
// the warc.paths.gz manifest and /collinfo.json the real servers publish),
// logs every request, and injects the failures long runs meet in practice:
// throttling with Retry-After, connections reset mid-body, bodies shorter
// than their Content-Length, stalls, truncated files and servers that
// ignore Range.
//
// It listens on 127.0.0.1 only (httptest) and never proxies anywhere. It
// does not model the CDX index API or S3 listing, which ccrawl does not use.
package cctest

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/open-markdown/ccrawl/internal/testutil"
)

// DefaultCrawl is the crawl id served when Config.Crawl is empty.
const DefaultCrawl = "CC-MAIN-2026-30"

// segment is the one segment every served shard lives in; ccrawl treats
// manifest paths as opaque, so one is enough.
const segment = "1769000000000.0"

// Config describes what a Server serves.
type Config struct {
	// Crawl is the crawl id in every path; "" means DefaultCrawl.
	Crawl string
	// Shards are local files served as
	// crawl-data/<Crawl>/segments/<seg>/warc/<base name> and listed, in this
	// order, in crawl-data/<Crawl>/warc.paths.gz. Base names must differ.
	Shards []string
	// WET files, likewise under wet/ and in wet.paths.gz (served only if set).
	WET []string
	// Collinfo is served at /collinfo.json, newest first; nil means a single
	// entry for Crawl.
	Collinfo []Collection
}

// Collection is one entry of collinfo.json.
type Collection struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	TimeGate string `json:"timegate,omitempty"`
	CDXAPI   string `json:"cdx-api,omitempty"`
	From     string `json:"from,omitempty"`
	To       string `json:"to,omitempty"`
}

// FaultKind selects what goes wrong.
type FaultKind int

const (
	// Pass serves the request normally; use it to fail only later attempts.
	Pass FaultKind = iota
	// Status answers Fault.Status (default 500) with Fault.RetryAfter, if set.
	Status
	// Unavailable answers 503 with Fault.RetryAfter, if set.
	Unavailable
	// TooMany answers 429 with Fault.RetryAfter, if set.
	TooMany
	// Reset sends the headers and Fault.After body bytes, then resets the
	// TCP connection (RST).
	Reset
	// Short declares the full Content-Length, sends Fault.After body bytes
	// and closes the connection cleanly (FIN).
	Short
	// Truncate serves the file as if it were only its first Fault.After
	// bytes, with a matching Content-Length: the download succeeds and the
	// file is broken (e.g. a truncated gzip).
	Truncate
	// Slow sends Fault.After body bytes, then pauses Fault.Delay (default
	// 1s, cut short if the client goes away), then sends the rest.
	Slow
	// IgnoreRange answers 200 with the whole file even to a Range request.
	IgnoreRange
)

var kindNames = [...]string{"pass", "status", "unavailable", "too-many", "reset", "short", "truncate", "slow", "ignore-range"}

func (k FaultKind) String() string {
	if k >= 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "FaultKind(" + strconv.Itoa(int(k)) + ")"
}

// Fault is a failure injected into requests for one path.
type Fault struct {
	Kind       FaultKind
	Times      int           // requests it applies to; 0 means every request from now on
	After      int64         // body bytes sent before Reset/Short break, or kept by Truncate/Slow
	Status     int           // for Status; 0 means 500
	RetryAfter string        // Retry-After header for Status/Unavailable/TooMany, e.g. "3" or an HTTP date
	Delay      time.Duration // for Slow
}

// Request is one logged request.
type Request struct {
	Path   string    // URL path without the leading slash, as in a manifest
	Range  string    // Range header, "" if none
	Status int       // status sent (as declared in the headers for Reset/Short)
	Fault  FaultKind // fault applied, Pass if none
}

// Server is a running fake Common Crawl. Embedded httptest.Server gives URL
// and Client; the server is closed by t.Cleanup.
type Server struct {
	*httptest.Server

	Crawl           string   // crawl id served
	ManifestPath    string   // crawl-data/<Crawl>/warc.paths.gz
	WETManifestPath string   // crawl-data/<Crawl>/wet.paths.gz, "" without WET files
	Paths           []string // shard paths in manifest order (pass to Download)
	WETPaths        []string

	files map[string]string // path → local file
	blobs map[string][]byte // path → generated document
	done  chan struct{}     // closed on shutdown, ends Slow pauses

	mu     sync.Mutex
	faults map[string][]*Fault
	log    []Request
}

// NewServer starts a Server for cfg; it fails the test if a shard file is
// missing or two share a base name.
func NewServer(t testing.TB, cfg Config) *Server {
	t.Helper()
	s := &Server{
		Crawl:  cfg.Crawl,
		files:  map[string]string{},
		blobs:  map[string][]byte{},
		done:   make(chan struct{}),
		faults: map[string][]*Fault{},
	}
	if s.Crawl == "" {
		s.Crawl = DefaultCrawl
	}
	add := func(kind string, locals []string) []string {
		var paths []string
		for _, local := range locals {
			if _, err := os.Stat(local); err != nil {
				t.Fatalf("cctest: shard file: %v", err)
			}
			p := "crawl-data/" + s.Crawl + "/segments/" + segment + "/" + kind + "/" + filepath.Base(local)
			if _, dup := s.files[p]; dup {
				t.Fatalf("cctest: two shard files named %s", filepath.Base(local))
			}
			s.files[p] = local
			paths = append(paths, p)
		}
		return paths
	}
	s.Paths = add("warc", cfg.Shards)
	s.ManifestPath = "crawl-data/" + s.Crawl + "/warc.paths.gz"
	s.blobs[s.ManifestPath] = gzipLines(s.Paths)
	if len(cfg.WET) > 0 {
		s.WETPaths = add("wet", cfg.WET)
		s.WETManifestPath = "crawl-data/" + s.Crawl + "/wet.paths.gz"
		s.blobs[s.WETManifestPath] = gzipLines(s.WETPaths)
	}
	colls := cfg.Collinfo
	if colls == nil {
		colls = []Collection{{ID: s.Crawl, Name: s.Crawl + " (cctest)"}}
	}
	js, err := json.Marshal(colls)
	if err != nil {
		t.Fatalf("cctest: collinfo: %v", err)
	}
	s.blobs["collinfo.json"] = js

	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(func() {
		close(s.done)
		s.Server.Close()
	})
	return s
}

func gzipLines(lines []string) []byte {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	for _, l := range lines {
		io.WriteString(zw, l+"\n")
	}
	zw.Close()
	return b.Bytes()
}

// Fail queues a fault for requests to path (with or without a leading
// slash). Faults apply in the order queued: one with Times n covers the
// next n requests, then the next fault takes over; one with Times 0 covers
// every later request. With no fault left, requests are served normally.
func (s *Server) Fail(path string, f Fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := strings.TrimPrefix(path, "/")
	s.faults[p] = append(s.faults[p], &f)
}

// take pops the fault for the next request to path.
func (s *Server) take(path string) Fault {
	s.mu.Lock()
	defer s.mu.Unlock()
	q := s.faults[path]
	if len(q) == 0 {
		return Fault{}
	}
	f := *q[0]
	if q[0].Times > 0 {
		q[0].Times--
		if q[0].Times == 0 {
			s.faults[path] = q[1:]
		}
	}
	return f
}

// Requests returns how many requests were made for path.
func (s *Server) Requests(path string) int {
	p := strings.TrimPrefix(path, "/")
	n := 0
	for _, r := range s.Log() {
		if r.Path == p {
			n++
		}
	}
	return n
}

// Ranges returns the Range headers sent for path, in order, skipping
// requests without one.
func (s *Server) Ranges(path string) []string {
	p := strings.TrimPrefix(path, "/")
	var out []string
	for _, r := range s.Log() {
		if r.Path == p && r.Range != "" {
			out = append(out, r.Range)
		}
	}
	return out
}

// Log returns a copy of every request so far, in arrival order.
func (s *Server) Log() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.log...)
}

func (s *Server) record(r Request) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.log = append(s.log, r)
	return len(s.log) - 1
}

func (s *Server) setStatus(i, status int) {
	s.mu.Lock()
	s.log[i].Status = status
	s.mu.Unlock()
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	path := strings.TrimPrefix(r.URL.Path, "/")
	f := s.take(path)
	req := Request{Path: path, Range: r.Header.Get("Range"), Fault: f.Kind}
	// Log on arrival so a request stuck in a Slow pause is already counted;
	// the status is filled in when the handler returns.
	i := s.record(req)
	defer func() { s.setStatus(i, req.Status) }()

	switch f.Kind {
	case Status, Unavailable, TooMany:
		req.Status = map[FaultKind]int{Status: http.StatusInternalServerError, Unavailable: http.StatusServiceUnavailable, TooMany: http.StatusTooManyRequests}[f.Kind]
		if f.Kind == Status && f.Status != 0 {
			req.Status = f.Status
		}
		if f.RetryAfter != "" {
			w.Header().Set("Retry-After", f.RetryAfter)
		}
		http.Error(w, "cctest: injected "+f.Kind.String(), req.Status)
		return
	}

	body, size, closeBody, ok := s.open(path)
	if !ok {
		req.Status = http.StatusNotFound
		http.NotFound(w, r)
		return
	}
	defer closeBody()
	if f.Kind == Truncate && f.After < size {
		size = max(f.After, 0)
	}
	rng := req.Range
	if f.Kind == IgnoreRange {
		rng = ""
	}
	start, n, ok := parseRange(rng, size)
	if !ok {
		req.Status = http.StatusRequestedRangeNotSatisfiable
		w.Header().Set("Content-Range", fmt.Sprintf("bytes */%d", size))
		http.Error(w, "cctest: range not satisfiable", req.Status)
		return
	}
	hdr := http.Header{}
	hdr.Set("Content-Type", "application/octet-stream")
	hdr.Set("Accept-Ranges", "bytes")
	hdr.Set("Content-Length", strconv.FormatInt(n, 10))
	req.Status = http.StatusOK
	if n != size || start != 0 {
		req.Status = http.StatusPartialContent
		hdr.Set("Content-Range", fmt.Sprintf("bytes %d-%d/%d", start, start+n-1, size))
	}
	sec := io.NewSectionReader(body, start, n)

	switch f.Kind {
	case Reset, Short:
		// Break before the end, or it would not be a fault.
		keep := min(max(f.After, 0), max(n-1, 0))
		s.breakConn(w, r, req.Status, hdr, io.LimitReader(sec, keep), f.Kind == Reset)
		return
	}
	for k, v := range hdr {
		w.Header()[k] = v
	}
	w.WriteHeader(req.Status)
	if r.Method == http.MethodHead {
		return
	}
	if f.Kind == Slow {
		io.CopyN(w, sec, max(f.After, 0))
		if fl, ok := w.(http.Flusher); ok {
			fl.Flush()
		}
		d := f.Delay
		if d <= 0 {
			d = time.Second
		}
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-t.C:
		case <-r.Context().Done():
			return
		case <-s.done:
			return
		}
	}
	io.Copy(w, sec)
}

// open finds the content for path.
func (s *Server) open(path string) (io.ReaderAt, int64, func(), bool) {
	if b, ok := s.blobs[path]; ok {
		return bytes.NewReader(b), int64(len(b)), func() {}, true
	}
	local, ok := s.files[path]
	if !ok {
		return nil, 0, nil, false
	}
	fh, err := os.Open(local)
	if err != nil {
		return nil, 0, nil, false
	}
	fi, err := fh.Stat()
	if err != nil {
		fh.Close()
		return nil, 0, nil, false
	}
	return fh, fi.Size(), func() { fh.Close() }, true
}

// parseRange resolves a single "bytes=a-" or "bytes=a-b" range; anything
// else is ignored (the whole file), as HTTP allows. ok is false when the
// range starts at or past the end.
func parseRange(h string, size int64) (start, n int64, ok bool) {
	spec, found := strings.CutPrefix(h, "bytes=")
	if h == "" || !found || strings.Contains(spec, ",") {
		return 0, size, true
	}
	a, b, found := strings.Cut(spec, "-")
	if !found || a == "" {
		return 0, size, true
	}
	from, err := strconv.ParseInt(a, 10, 64)
	if err != nil || from < 0 {
		return 0, size, true
	}
	if from >= size {
		return 0, 0, false
	}
	to := size - 1
	if b != "" {
		if v, err := strconv.ParseInt(b, 10, 64); err == nil && v >= from && v < size {
			to = v
		}
	}
	return from, to - from + 1, true
}

// breakConn writes a response by hand on the hijacked connection, declaring
// the full length, and hangs up after body: with an RST when reset, else
// with a clean close that leaves the body short.
func (s *Server) breakConn(w http.ResponseWriter, r *http.Request, status int, hdr http.Header, body io.Reader, reset bool) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		panic("cctest: ResponseWriter cannot hijack")
	}
	conn, bw, err := hj.Hijack()
	if err != nil {
		return
	}
	defer conn.Close()
	fmt.Fprintf(bw, "HTTP/1.1 %d %s\r\n", status, http.StatusText(status))
	hdr.Set("Connection", "close")
	hdr.Write(bw)
	bw.WriteString("\r\n")
	if r.Method != http.MethodHead {
		io.Copy(bw, body)
	}
	bw.Flush()
	if tc, ok := conn.(*net.TCPConn); ok && reset {
		tc.SetLinger(0) // Close now sends RST instead of FIN
	}
}

// Corpus returns the path of a file in the shared test corpus
// (<repo>/../shared/corpus/<name>), found by walking up from the working
// directory to the directory holding go.mod. It skips the test if the
// corpus is absent, so the repository's tests pass without it.
func Corpus(t testing.TB, name string) string {
	t.Helper()
	dir := testutil.RepoRoot(t)
	p := filepath.Join(dir, "..", "shared", "corpus", name)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("cctest: shared corpus file %s not available: %v", p, err)
	}
	return p
}
