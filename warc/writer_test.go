package warc

import (
	"bytes"
	"fmt"
	"io"
	"regexp"
	"strings"
	"testing"
)

func TestWriterRoundTrip(t *testing.T) {
	block := []byte("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<html><body>hello</body></html>")
	for _, gz := range []bool{true, false} {
		t.Run(fmt.Sprintf("gzip=%v", gz), func(t *testing.T) {
			var buf bytes.Buffer
			w := NewWriter(&buf, gz)
			w.Digests = true
			var offs []int64
			for i := 0; i < 3; i++ {
				offs = append(offs, w.Offset())
				h := Header{{"WARC-Type", "response"}, {"WARC-Target-URI", fmt.Sprintf("https://example.org/%d", i)}, {"WARC-Protocol", "h2"}, {"WARC-Protocol", "tls/1.3"}}
				if err := w.WriteRecord(h, block); err != nil {
					t.Fatal(err)
				}
			}
			if err := w.WriteRecord(Header{{"Content-Length", "1"}}, nil); err == nil {
				t.Error("record without WARC-Type was written")
			}
			if err := w.WriteRecord(Header{{"WARC-Type", "resource"}, {"X-Bad", "a\r\nb"}}, nil); err == nil {
				t.Error("field with a line break was written")
			}
			rd, err := NewReader(bytes.NewReader(buf.Bytes()))
			if err != nil {
				t.Fatal(err)
			}
			idRE := regexp.MustCompile(`^<urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}>$`)
			ids := map[string]bool{}
			for i := 0; ; i++ {
				rec, err := rd.Next()
				if err == io.EOF {
					if i != 3 {
						t.Fatalf("read %d records, wrote 3", i)
					}
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				if rec.Version != "WARC/1.1" || rec.Type != "response" || rec.Offset != offs[i] || rec.ContentLength() != int64(len(block)) {
					t.Errorf("record %d: %s %s offset %d (want %d) length %d", i, rec.Version, rec.Type, rec.Offset, offs[i], rec.ContentLength())
				}
				if got := strings.Join(rec.Header.Values("warc-protocol"), ","); got != "h2,tls/1.3" {
					t.Errorf("WARC-Protocol values %q", got)
				}
				if rec.Header[0].Name != "WARC-Type" || rec.Header[1].Name != "WARC-Target-URI" {
					t.Errorf("field order changed: %v", rec.Header)
				}
				if id := rec.RecordID(); !idRE.MatchString(id) || ids[id] {
					t.Errorf("record id %q malformed or repeated", id)
				} else {
					ids[id] = true
				}
				if rec.Date().IsZero() {
					t.Error("no WARC-Date added")
				}
				raw, err := io.ReadAll(rec.Body)
				if err != nil {
					t.Fatal(err)
				}
				if d, _ := PayloadDigest(bytes.NewReader(raw)); d != rec.Header.Get("WARC-Block-Digest") {
					t.Errorf("block digest %s, computed %s", rec.Header.Get("WARC-Block-Digest"), d)
				}
				resp, err := ReadHTTPResponse(bytes.NewReader(raw))
				if err != nil {
					t.Fatal(err)
				}
				if d, _ := PayloadDigest(resp.Body); d != rec.PayloadDigest() {
					t.Errorf("payload digest %s, computed %s", rec.PayloadDigest(), d)
				}
			}
		})
	}
}

func TestPayloadDigest(t *testing.T) {
	// Known value: SHA-1 of the empty string in base32, as in CC's
	// redirect records.
	cases := map[string]string{
		"":    "sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ",
		"abc": "sha1:VGMT4NSHA2AWVOR6EVYXQUGCNSONBWE5",
	}
	for in, want := range cases {
		if got, err := PayloadDigest(strings.NewReader(in)); err != nil || got != want {
			t.Errorf("PayloadDigest(%q) = %s, %v; want %s", in, got, err, want)
		}
	}
}
