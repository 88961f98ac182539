package warc

import (
	"bufio"
	"bytes"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestReadHTTPResponse(t *testing.T) {
	cases := []struct {
		name, in    string
		status      int
		proto       string
		reason      string
		ctype       string
		header      http.Header // checked keys only
		body, errIn string
	}{
		{name: "plain", in: "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=UTF-8\r\nContent-Length: 4\r\n\r\nbody",
			status: 200, proto: "HTTP/1.1", reason: "OK", ctype: "text/html", body: "body",
			header: http.Header{"Content-Type": {"text/html; charset=UTF-8"}, "Content-Length": {"4"}}},
		{name: "h2 as stored by CC", in: "HTTP/1.1 200 \r\ncontent-type: text/html\r\nX-Crawler-content-encoding: br\r\ncontent-length: 6\r\n\r\n<html>",
			status: 200, proto: "HTTP/1.1", ctype: "text/html", body: "<html>",
			header: http.Header{"X-Crawler-Content-Encoding": {"br"}, "Content-Length": {"6"}}},
		{name: "bare LF", in: "HTTP/1.0 404 Not Found\nServer: x\n\nnope", status: 404, proto: "HTTP/1.0", reason: "Not Found", body: "nope",
			header: http.Header{"Server": {"x"}}},
		{name: "junk lines", in: "HTTP/1.1 200 OK\r\nthis line has no colon\r\nContent-Type : TEXT/Plain ;charset=x\r\nX-Long: a\r\n  b\r\n: empty name\r\nSet-Cookie: a=1\r\nset-cookie: b=2\r\n\r\nok",
			status: 200, proto: "HTTP/1.1", reason: "OK", ctype: "text/plain", body: "ok",
			header: http.Header{"X-Long": {"a b"}, "Set-Cookie": {"a=1", "b=2"}}},
		{name: "header to end of block", in: "HTTP/1.1 304 Not Modified\r\nETag: \"x\"\r\n", status: 304, proto: "HTTP/1.1", reason: "Not Modified",
			header: http.Header{"Etag": {`"x"`}}},
		{name: "status without reason", in: "HTTP/1.1 301\r\nLocation: /x\r\n\r\n", status: 301, proto: "HTTP/1.1", header: http.Header{"Location": {"/x"}}},
		{name: "two content types", in: "HTTP/1.1 200 OK\r\nContent-Type: text/html, text/html\r\n\r\n", status: 200, proto: "HTTP/1.1", reason: "OK", ctype: "text/html"},
		{name: "empty", in: "", errIn: "empty HTTP response block"},
		{name: "not http", in: "<html><body>x</body></html>", errIn: "not an HTTP response"},
		{name: "bad status", in: "HTTP/1.1 abc OK\r\n\r\n", errIn: "bad HTTP status line"},
		{name: "long status", in: "HTTP/1.1 2000 OK\r\n\r\n", errIn: "bad HTTP status line"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// Through a Record body (the fast path) and a plain reader.
			for _, viaRecord := range []bool{true, false} {
				var block io.Reader = strings.NewReader(tc.in)
				if viaRecord {
					var buf bytes.Buffer
					if err := NewWriter(&buf, true).WriteRecord(Header{{"WARC-Type", "response"}}, []byte(tc.in)); err != nil {
						t.Fatal(err)
					}
					rd, err := NewReader(&buf)
					if err != nil {
						t.Fatal(err)
					}
					rec, err := rd.Next()
					if err != nil {
						t.Fatal(err)
					}
					block = rec.Body
				}
				resp, err := ReadHTTPResponse(block)
				if tc.errIn != "" {
					if err == nil || !strings.Contains(err.Error(), tc.errIn) {
						t.Fatalf("viaRecord=%v: error %v, want %q", viaRecord, err, tc.errIn)
					}
					continue
				}
				if err != nil {
					t.Fatalf("viaRecord=%v: %v", viaRecord, err)
				}
				body, err := io.ReadAll(resp.Body)
				if err != nil {
					t.Fatal(err)
				}
				if resp.Status != tc.status || resp.Proto != tc.proto || resp.Reason != tc.reason || resp.ContentType() != tc.ctype || string(body) != tc.body {
					t.Errorf("viaRecord=%v: got %d %q %q ctype %q body %q", viaRecord, resp.Status, resp.Proto, resp.Reason, resp.ContentType(), body)
				}
				for k, v := range tc.header {
					if !reflect.DeepEqual(resp.Header[k], v) {
						t.Errorf("viaRecord=%v: header %s = %q, want %q", viaRecord, k, resp.Header[k], v)
					}
				}
			}
		})
	}
}

// responseBlocks returns the blocks of the response records of a corpus file.
func responseBlocks(t testing.TB) [][]byte {
	shared := sharedDir(t)
	f, err := os.Open(filepath.Join(shared, "corpus", "small.warc.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rd, err := NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var out [][]byte
	for {
		rec, err := rd.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		if rec.Type == "response" {
			b, err := io.ReadAll(rec.Body)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, b)
		}
	}
}

// TestHTTPAgreesWithNetHTTP checks the lenient parser against net/http on
// every response of the corpus, where net/http accepts them.
func TestHTTPAgreesWithNetHTTP(t *testing.T) {
	blocks := responseBlocks(t)
	if len(blocks) == 0 {
		t.Fatal("no response records")
	}
	for i, b := range blocks {
		mine, err := ReadHTTPResponse(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("block %d: %v", i, err)
		}
		theirs, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(b)), nil)
		if err != nil {
			t.Fatalf("block %d: net/http: %v", i, err)
		}
		if mine.Status != theirs.StatusCode || mine.Proto != theirs.Proto || !reflect.DeepEqual(mine.Header, theirs.Header) {
			t.Errorf("block %d:\n mine %d %s %v\n net/http %d %s %v", i, mine.Status, mine.Proto, mine.Header, theirs.StatusCode, theirs.Proto, theirs.Header)
		}
		a, _ := io.ReadAll(mine.Body)
		c, _ := io.ReadAll(theirs.Body)
		if !bytes.Equal(a, c) {
			t.Errorf("block %d: payload %d bytes, net/http %d", i, len(a), len(c))
		}
	}
}

// BenchmarkHTTPParse compares ReadHTTPResponse with net/http.ReadResponse
// (bufio.Reader reused, its best case) on the response records of the
// corpus, read from an in-memory plain WARC as the pipeline reads them.
func BenchmarkHTTPParse(b *testing.B) {
	blocks := responseBlocks(b)
	var buf bytes.Buffer
	w := NewWriter(&buf, false)
	for _, blk := range blocks {
		if err := w.WriteRecord(Header{{"WARC-Type", "response"}}, blk); err != nil {
			b.Fatal(err)
		}
	}
	data := buf.Bytes()
	parsers := []struct {
		name  string
		parse func(io.Reader, *bufio.Reader) (int, error)
	}{
		// Records only: the cost both parsers share.
		{"none", func(io.Reader, *bufio.Reader) (int, error) { return 200, nil }},
		{"warc", func(r io.Reader, _ *bufio.Reader) (int, error) {
			resp, err := ReadHTTPResponse(r)
			if err != nil {
				return 0, err
			}
			return resp.Status, nil
		}},
		{"net-http", func(r io.Reader, br *bufio.Reader) (int, error) {
			br.Reset(r)
			resp, err := http.ReadResponse(br, nil)
			if err != nil {
				return 0, err
			}
			return resp.StatusCode, nil
		}},
	}
	for _, p := range parsers {
		b.Run(p.name, func(b *testing.B) {
			br := bufio.NewReader(nil)
			n := 0
			for n < b.N {
				rd, err := NewReader(bytes.NewReader(data))
				if err != nil {
					b.Fatal(err)
				}
				for ; n < b.N; n++ {
					rec, err := rd.Next()
					if err == io.EOF {
						break
					}
					if err != nil {
						b.Fatal(err)
					}
					if status, err := p.parse(rec.Body, br); err != nil || status == 0 {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "responses/s")
		})
	}
}
