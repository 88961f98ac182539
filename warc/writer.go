package warc

import (
	"bytes"
	"crypto/rand"
	"crypto/sha1"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/klauspost/compress/gzip"
)

// Writer writes WARC/1.1 records, each in its own gzip member when asked
// (the Common Crawl layout). It exists to build test fixtures and small
// WARCs, so it favours being obvious over being fast.
type Writer struct {
	// Digests adds WARC-Block-Digest, and WARC-Payload-Digest for HTTP
	// response blocks, when the header lacks them.
	Digests bool

	w   io.Writer
	n   int64
	gz  bool
	zw  *gzip.Writer
	buf bytes.Buffer
}

// NewWriter returns a Writer on w; gzipPerRecord writes one gzip member per
// record, otherwise records are written uncompressed.
func NewWriter(w io.Writer, gzipPerRecord bool) *Writer {
	return &Writer{w: w, gz: gzipPerRecord}
}

// Offset is the number of bytes written so far: the offset of the next
// record.
func (w *Writer) Offset() int64 { return w.n }

// WriteRecord writes one record: the fields of h in order, then block.
// WARC-Type is required. WARC-Record-ID and WARC-Date are added when
// missing. Content-Length is len(block) unless h sets it, which lets tests
// build records whose Content-Length lies.
func (w *Writer) WriteRecord(h Header, block []byte) error {
	if h.Get("WARC-Type") == "" {
		return errors.New("warc: WriteRecord: the header has no WARC-Type")
	}
	w.buf.Reset()
	w.buf.WriteString("WARC/1.1\r\n")
	field := func(name, value string) {
		w.buf.WriteString(name + ": " + value + "\r\n")
	}
	for _, f := range h {
		if strings.ContainsAny(f.Name, "\r\n:") || strings.ContainsAny(f.Value, "\r\n") {
			return fmt.Errorf("warc: WriteRecord: field %q has a line break or a colon in its name", f.Name)
		}
		field(f.Name, f.Value)
	}
	if h.Get("WARC-Record-ID") == "" {
		field("WARC-Record-ID", NewRecordID())
	}
	if h.Get("WARC-Date") == "" {
		field("WARC-Date", time.Now().UTC().Format(time.RFC3339))
	}
	if h.Get("Content-Length") == "" {
		field("Content-Length", strconv.Itoa(len(block)))
	}
	if w.Digests {
		if h.Get("WARC-Block-Digest") == "" {
			field("WARC-Block-Digest", digestOf(block))
		}
		if h.Get("WARC-Payload-Digest") == "" && h.Get("WARC-Type") == "response" {
			if i := bytes.Index(block, []byte("\r\n\r\n")); i >= 0 && bytes.HasPrefix(block, []byte("HTTP/")) {
				field("WARC-Payload-Digest", digestOf(block[i+4:]))
			}
		}
	}
	w.buf.WriteString("\r\n")
	w.buf.Write(block)
	w.buf.WriteString("\r\n\r\n")
	var err error
	if w.gz {
		var zb bytes.Buffer
		if w.zw == nil {
			w.zw = gzip.NewWriter(&zb)
		} else {
			w.zw.Reset(&zb)
		}
		w.zw.Write(w.buf.Bytes())
		if err = w.zw.Close(); err == nil {
			err = w.write(zb.Bytes())
		}
	} else {
		err = w.write(w.buf.Bytes())
	}
	if err != nil {
		return fmt.Errorf("warc: writing record at offset %d: %w", w.n, err)
	}
	return nil
}

func (w *Writer) write(p []byte) error {
	n, err := w.w.Write(p)
	w.n += int64(n)
	return err
}

func digestOf(p []byte) string {
	h := sha1.New()
	h.Write(p)
	return digestString(h)
}

// NewRecordID returns a fresh WARC-Record-ID: a random (v4) UUID URN in
// angle brackets.
func NewRecordID() string {
	var u [16]byte
	rand.Read(u[:])
	u[6] = u[6]&0x0f | 0x40
	u[8] = u[8]&0x3f | 0x80
	return fmt.Sprintf("<urn:uuid:%x-%x-%x-%x-%x>", u[0:4], u[4:6], u[6:8], u[8:10], u[10:])
}
