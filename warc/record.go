package warc

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// Field is one WARC named field, as written (name case kept).
type Field struct {
	Name  string
	Value string
}

// Header is a record's named fields in file order. Names compare
// case-insensitively; a slice rather than a map keeps the order and the
// repeated fields (WARC-Protocol, WARC-Concurrent-To) that WARC allows.
type Header []Field

// Get returns the value of the first field named name (case-insensitive),
// or "" if there is none.
func (h Header) Get(name string) string {
	for i := range h {
		if strings.EqualFold(h[i].Name, name) {
			return h[i].Value
		}
	}
	return ""
}

// Values returns the values of every field named name, in order.
func (h Header) Values(name string) []string {
	var out []string
	for i := range h {
		if strings.EqualFold(h[i].Name, name) {
			out = append(out, h[i].Value)
		}
	}
	return out
}

// Record is one WARC record. Body reads the record block and is valid until
// the next call to Reader.Next, which skips whatever was not read.
type Record struct {
	// Version is the version line, e.g. "WARC/1.0" or "WARC/1.1".
	Version string
	// Type is the WARC-Type field: warcinfo, request, response, metadata,
	// revisit, resource, conversion, continuation.
	Type   string
	Header Header

	// Offset is where the record starts: the compressed byte offset of its
	// gzip member when the record starts a member (Common Crawl layout; the
	// value a CDX index holds), the byte offset in the file for plain WARC,
	// and the offset in the decompressed stream for a record that sits
	// inside a gzip member holding several records (whole-file gzip).
	Offset int64
	// Length is the record's size in the same terms as Offset (the
	// compressed member length for gzip-per-record files). It is 0 until
	// the record has been consumed: it is set when Body returns io.EOF and
	// at the latest by the next call to Next (also the one returning
	// io.EOF).
	Length int64

	// Body reads the block: exactly Content-Length bytes, no transfer or
	// content decoding. A read error wrapping *CorruptError means the
	// record is damaged: drop it; the next Next reports the same damage,
	// so count errors from Next only.
	Body io.Reader

	contentLength int64
	body          body
	inMember      bool // record sits inside a member that it did not start
	startedMember bool
	uStart        int64 // decompressed-stream position of the record start
	ended         bool
	endErr        error
}

// ContentLength is the block length from the Content-Length field.
func (r *Record) ContentLength() int64 { return r.contentLength }

// TargetURI is WARC-Target-URI. Some writers wrap it in <>; those are removed.
func (r *Record) TargetURI() string {
	u := r.Header.Get("WARC-Target-URI")
	if len(u) >= 2 && u[0] == '<' && u[len(u)-1] == '>' {
		u = u[1 : len(u)-1]
	}
	return u
}

// RecordID is WARC-Record-ID, including the angle brackets.
func (r *Record) RecordID() string { return r.Header.Get("WARC-Record-ID") }

// PayloadDigest is WARC-Payload-Digest ("sha1:BASE32"), "" if absent.
func (r *Record) PayloadDigest() string { return r.Header.Get("WARC-Payload-Digest") }

// Truncated is WARC-Truncated (e.g. "length"), "" when the block is whole.
func (r *Record) Truncated() string { return r.Header.Get("WARC-Truncated") }

// IdentifiedPayloadType is WARC-Identified-Payload-Type.
func (r *Record) IdentifiedPayloadType() string {
	return r.Header.Get("WARC-Identified-Payload-Type")
}

// Date is WARC-Date in UTC; the zero time if it is missing or malformed,
// because a bad date should not cost the record.
func (r *Record) Date() time.Time {
	v := r.Header.Get("WARC-Date")
	if v == "" {
		return time.Time{}
	}
	t, err := time.Parse(time.RFC3339Nano, v)
	if err != nil {
		// WARC/1.0 allows the date alone.
		if t, err = time.Parse("2006-01-02", v); err != nil {
			return time.Time{}
		}
	}
	return t.UTC()
}

// parseHeader parses a WARC header block (version line, fields; the blank
// line already removed) held in one string, so names and values are
// substrings of a single allocation.
func parseHeader(s string) (version string, h Header, clen int64, err error) {
	line, rest, _ := strings.Cut(s, "\n")
	version = strings.TrimRight(line, "\r")
	if !strings.HasPrefix(version, "WARC/") {
		return "", nil, 0, fmt.Errorf("expected a WARC/1.x version line, found %q", clip(version))
	}
	h = make(Header, 0, 16)
	for rest != "" {
		line, rest, _ = strings.Cut(rest, "\n")
		line = strings.TrimRight(line, "\r")
		if line == "" {
			continue
		}
		if (line[0] == ' ' || line[0] == '\t') && len(h) > 0 {
			// Folded continuation line (allowed by WARC/1.0).
			h[len(h)-1].Value += " " + strings.TrimSpace(line)
			continue
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			// Tolerated: one junk line should not cost the record.
			continue
		}
		h = append(h, Field{Name: strings.TrimSpace(name), Value: strings.TrimSpace(value)})
	}
	cl := h.Get("Content-Length")
	if cl == "" {
		return "", nil, 0, fmt.Errorf("missing Content-Length")
	}
	clen, perr := strconv.ParseInt(cl, 10, 64)
	if perr != nil || clen < 0 {
		return "", nil, 0, fmt.Errorf("bad Content-Length %q", clip(cl))
	}
	return version, h, clen, nil
}

// clip shortens outside text quoted in error messages.
func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}
