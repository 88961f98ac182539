package fetch

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
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

// sharedDir finds ../shared next to the module root (the dir holding go.mod).
func sharedDir(t testing.TB) string {
	t.Helper()
	dir := testutil.RepoRoot(t)
	shared := filepath.Join(filepath.Dir(dir), "shared")
	if _, err := os.Stat(filepath.Join(shared, "corpus")); err != nil {
		t.Skipf("shared corpus absent at %s: %v", shared, err)
	}
	return shared
}

// corpusPages returns up to n HTML bodies of status-200 responses from a
// real WARC shard in ../shared/corpus, so the tests serve real pages.
func corpusPages(t testing.TB, n int) [][]byte {
	t.Helper()
	f, err := os.Open(filepath.Join(sharedDir(t), "corpus", "small.warc.gz"))
	if err != nil {
		t.Skipf("corpus shard: %v", err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(zr)
	var pages [][]byte
	for len(pages) < n {
		typ, block, err := nextWARCRecord(br)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("reading corpus WARC: %v", err)
		}
		if typ != "response" {
			continue
		}
		i := bytes.Index(block, []byte("\r\n\r\n"))
		if i < 0 {
			continue
		}
		head := strings.ToLower(string(block[:i]))
		if !strings.HasPrefix(head, "http/1.1 200") || !strings.Contains(head, "content-type: text/html") ||
			strings.Contains(head, "\ncontent-encoding:") {
			continue
		}
		pages = append(pages, block[i+4:])
	}
	if len(pages) == 0 {
		t.Fatal("no HTML responses found in corpus shard")
	}
	return pages
}

func nextWARCRecord(br *bufio.Reader) (typ string, block []byte, err error) {
	length := -1
	started := false
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			if !started && err == io.EOF && line == "" {
				return "", nil, io.EOF
			}
			return "", nil, err
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			if !started { // the blank lines that separate records
				continue
			}
			break
		}
		started = true
		k, v, _ := strings.Cut(line, ":")
		switch strings.ToLower(k) {
		case "warc-type":
			typ = strings.TrimSpace(v)
		case "content-length":
			length, _ = strconv.Atoi(strings.TrimSpace(v))
		}
	}
	if length < 0 {
		return "", nil, errors.New("record without Content-Length")
	}
	block = make([]byte, length)
	if _, err := io.ReadFull(br, block); err != nil {
		return "", nil, err
	}
	return typ, block, nil
}

// reqLog is what a test server saw.
type reqLog struct {
	Host, Path, Remote, UA string
	At                     time.Time
}

// vhosts is one loopback server that serves many virtual hosts, dispatching
// on the Host header, and logs every request it receives.
type vhosts struct {
	t     testing.TB
	srv   *httptest.Server
	port  string
	mu    sync.Mutex
	hosts map[string]http.Handler
	log   []reqLog
}

func newVhosts(t testing.TB) *vhosts {
	v := &vhosts{t: t, hosts: map[string]http.Handler{}}
	v.srv = httptest.NewServer(http.HandlerFunc(v.serve))
	t.Cleanup(v.srv.Close)
	_, v.port, _ = net.SplitHostPort(v.srv.Listener.Addr().String())
	return v
}

func (v *vhosts) serve(w http.ResponseWriter, r *http.Request) {
	host := hostOnly(r.Host)
	v.mu.Lock()
	v.log = append(v.log, reqLog{Host: host, Path: r.URL.RequestURI(), Remote: r.RemoteAddr, UA: r.UserAgent(), At: time.Now()})
	h := v.hosts[host]
	v.mu.Unlock()
	if h == nil {
		http.NotFound(w, r)
		return
	}
	h.ServeHTTP(w, r)
}

func (v *vhosts) handle(host string, h http.Handler) {
	v.mu.Lock()
	v.hosts[host] = h
	v.mu.Unlock()
}

func (v *vhosts) url(host, path string) string {
	return "http://" + host + ":" + v.port + path
}

func (v *vhosts) requests() []reqLog {
	v.mu.Lock()
	defer v.mu.Unlock()
	return append([]reqLog(nil), v.log...)
}

func (v *vhosts) count(host, path string) int {
	n := 0
	for _, l := range v.requests() {
		if l.Host == host && (path == "" || l.Path == path) {
			n++
		}
	}
	return n
}

// testLookup maps every *.test name to loopback, except nx.test, which
// fails the way an NXDOMAIN would; nothing ever leaves the machine.
func testLookup(ctx context.Context, host string) ([]string, error) {
	if host == "nx.test" || !strings.HasSuffix(host, ".test") {
		return nil, fmt.Errorf("test resolver: no such host %q", host)
	}
	return []string{"127.0.0.1"}, nil
}

func newTestFetcher(t testing.TB, opts Options) *Fetcher {
	t.Helper()
	if opts.LookupHost == nil {
		opts.LookupHost = testLookup
	}
	f, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(f.CloseIdleConnections)
	return f
}
