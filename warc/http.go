package warc

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
)

// HTTPResponse is the HTTP response stored in a response record's block.
// Nothing is decoded: Common Crawl stores the payload already decoded and
// renames Content-Encoding, Transfer-Encoding and a wrong Content-Length
// to X-Crawler-*, so Body is the payload as stored.
type HTTPResponse struct {
	Proto  string // "HTTP/1.1"; HTTP/2 fetches are stored as HTTP/1.1
	Status int
	Reason string // may be empty (HTTP/2 fetches)
	Header http.Header
	Body   io.Reader // the payload; for a Record.Body, valid until Next
}

// ContentType is the media type of Content-Type, lower-cased, without
// parameters; "" when there is none.
func (r *HTTPResponse) ContentType() string {
	vs := r.Header["Content-Type"]
	if len(vs) == 0 {
		return ""
	}
	v := vs[0]
	if i := strings.IndexAny(v, ";,"); i >= 0 {
		v = v[:i]
	}
	return strings.ToLower(strings.TrimSpace(v))
}

// ReadHTTPResponse parses the status line and header of the HTTP response
// in block (usually a response Record's Body) and leaves Body at the start
// of the payload. It is lenient where crawled servers are sloppy: bare LF
// line ends, header lines without a colon (skipped), folded lines, an
// empty reason phrase, a header that runs to the end of the block. It
// does not use net/http.ReadResponse, which rejects such junk, applies
// transfer decoding, and was slower in BenchmarkReadHTTPResponse.
func ReadHTTPResponse(block io.Reader) (*HTTPResponse, error) {
	var src peeker
	var payload io.Reader
	var buf []byte
	if b, ok := block.(*body); ok {
		// Parse straight out of the reader's buffer, no second copy.
		src, payload, buf = b, b, b.rd.hbuf[:0]
	} else {
		br := bufio.NewReaderSize(block, 4096)
		src, payload = bufPeeker{br}, br
		pb := hdrPool.Get().(*[]byte)
		defer hdrPool.Put(pb)
		buf = (*pb)[:0]
		defer func() { *pb = buf[:0] }()
	}
	hdr, err := readHeaderBlock(src, buf)
	buf = hdr[:0]
	if b, ok := block.(*body); ok {
		b.rd.hbuf = buf
	}
	switch {
	case err == errHeaderLimit:
		return nil, fmt.Errorf("warc: HTTP response header longer than %d bytes", maxHeaderBytes)
	case err != nil && err != io.EOF:
		return nil, err
	case len(hdr) == 0:
		return nil, errors.New("warc: empty HTTP response block")
	}
	resp, err := parseHTTPHeader(string(hdr))
	if err != nil {
		return nil, err
	}
	resp.Body = payload
	return resp, nil
}

// hdrPool holds header buffers for blocks that are not a Record body.
var hdrPool = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

func parseHTTPHeader(s string) (*HTTPResponse, error) {
	line, rest, _ := strings.Cut(s, "\n")
	line = strings.TrimRight(line, "\r")
	if !strings.HasPrefix(line, "HTTP/") {
		return nil, fmt.Errorf("warc: not an HTTP response: status line %q", clip(line))
	}
	proto, after, _ := strings.Cut(line, " ")
	after = strings.TrimLeft(after, " ")
	if len(after) < 3 || !isDigit(after[0]) || !isDigit(after[1]) || !isDigit(after[2]) || (len(after) > 3 && after[3] != ' ') {
		return nil, fmt.Errorf("warc: bad HTTP status line %q", clip(line))
	}
	resp := &HTTPResponse{
		Proto:  proto,
		Status: int(after[0]-'0')*100 + int(after[1]-'0')*10 + int(after[2]-'0'),
		Reason: strings.TrimSpace(after[3:]),
	}
	n := strings.Count(rest, "\n") + 1
	h := make(http.Header, n)
	// One backing array for the single-valued common case, as net/textproto does.
	vals := make([]string, n)
	var last string
	for rest != "" {
		line, rest, _ = strings.Cut(rest, "\n")
		line = strings.TrimRight(line, "\r")
		if line == "" {
			continue
		}
		if line[0] == ' ' || line[0] == '\t' {
			if vs := h[last]; len(vs) > 0 {
				vs[len(vs)-1] += " " + strings.TrimSpace(line)
			}
			continue
		}
		name, value, ok := strings.Cut(line, ":")
		name = strings.TrimSpace(name)
		if !ok || name == "" {
			continue
		}
		key := http.CanonicalHeaderKey(name)
		value = strings.TrimSpace(value)
		if vs, ok := h[key]; ok {
			h[key] = append(vs, value)
		} else {
			vv := vals[:1:1]
			vals = vals[1:]
			vv[0] = value
			h[key] = vv
		}
		last = key
	}
	resp.Header = h
	return resp, nil
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
