package warc

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/open-markdown/ccrawl/internal/testutil"

	"github.com/klauspost/compress/gzip"
)

// sharedDir finds ../shared next to the module root, or skips.
func sharedDir(t testing.TB) string {
	t.Helper()
	dir := testutil.RepoRoot(t)
	shared := filepath.Join(dir, "..", "shared")
	if _, err := os.Stat(filepath.Join(shared, "corpus")); err != nil {
		t.Skipf("shared corpus not found at %s: %v", shared, err)
	}
	return shared
}

type truthCapture struct {
	RecordID       string `json:"record_id"`
	WarcType       string `json:"warc_type"`
	RequestID      string `json:"request_id"`
	MetadataID     string `json:"metadata_id"`
	Offset         int64  `json:"offset"`
	Length         int64  `json:"length"`
	RequestOffset  int64  `json:"request_offset"`
	MetadataOffset int64  `json:"metadata_offset"`
	URL            string `json:"url"`
	Date           string `json:"date"`
	Status         int    `json:"status"`
	MIME           string `json:"mime"`
	IdentifiedMIME string `json:"identified_mime"`
	PayloadDigest  string `json:"payload_digest"`
	PayloadLength  int64  `json:"payload_length"`
}

type truthFile struct {
	Warc struct {
		WarcinfoID     string `json:"warcinfo_id"`
		WarcinfoLength int64  `json:"warcinfo_length"`
		Records        int    `json:"records"`
		Compressed     int64  `json:"compressed_bytes"`
		Uncompressed   int64  `json:"uncompressed_bytes"`
	} `json:"warc"`
	Captures []truthCapture `json:"captures"`
}

func loadTruth(t *testing.T, path string) *truthFile {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var tf truthFile
	if err := json.Unmarshal(b, &tf); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return &tf
}

// seen is what the test learned about one record.
type seen struct {
	typ, id, url, date, digest, computed, mime, identified, truncated string
	offset, length, payloadLen                                        int64
	status                                                            int
}

// readAll reads every record of r, parsing HTTP for response records.
func readAll(t *testing.T, r io.Reader) []seen {
	t.Helper()
	rd, err := NewReader(r)
	if err != nil {
		t.Fatal(err)
	}
	var out []*seen
	var recs []*Record
	for {
		rec, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("Next after %d records: %v", len(out), err)
		}
		s := &seen{typ: rec.Type, id: rec.RecordID(), url: rec.TargetURI(), date: rec.Date().Format(time.RFC3339),
			digest: rec.PayloadDigest(), offset: rec.Offset, identified: rec.IdentifiedPayloadType(), truncated: rec.Truncated()}
		if rec.Type == "response" || rec.Type == "revisit" {
			resp, err := ReadHTTPResponse(rec.Body)
			if err != nil {
				t.Fatalf("record %s: %v", s.id, err)
			}
			s.status, s.mime = resp.Status, resp.ContentType()
			cw := &countWriter{}
			s.computed, err = PayloadDigest(io.TeeReader(resp.Body, cw))
			if err != nil {
				t.Fatalf("record %s: %v", s.id, err)
			}
			s.payloadLen = cw.n
		} else if n, err := io.Copy(io.Discard, rec.Body); err != nil || n != rec.ContentLength() {
			t.Fatalf("record %s: read %d of %d bytes: %v", s.id, n, rec.ContentLength(), err)
		}
		out = append(out, s)
		recs = append(recs, rec)
	}
	res := make([]seen, len(out))
	for i, s := range out {
		s.length = recs[i].Length
		res[i] = *s
	}
	return res
}

type countWriter struct{ n int64 }

func (c *countWriter) Write(p []byte) (int, error) { c.n += int64(len(p)); return len(p), nil }

// TestCorpusTruth checks every record of the shared corpus against ccgen's
// truth file: offsets, compressed lengths, ids, digests, HTTP status, type.
func TestCorpusTruth(t *testing.T) {
	shared := sharedDir(t)
	for _, name := range []string{"small.warc.gz", "small-b.warc.gz", "small-c.warc.gz"} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(shared, "corpus", name)
			tf := loadTruth(t, path+".truth.json")
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			recs := readAll(t, f)
			if len(recs) != tf.Warc.Records {
				t.Fatalf("read %d records, truth has %d", len(recs), tf.Warc.Records)
			}
			info := recs[0]
			if info.typ != "warcinfo" || info.id != tf.Warc.WarcinfoID || info.offset != 0 || info.length != tf.Warc.WarcinfoLength {
				t.Errorf("warcinfo = %+v, truth id %s length %d", info, tf.Warc.WarcinfoID, tf.Warc.WarcinfoLength)
			}
			byID := map[string]seen{}
			var end int64
			for _, s := range recs {
				byID[s.id] = s
				end = max(end, s.offset+s.length)
			}
			if end != tf.Warc.Compressed {
				t.Errorf("last record ends at %d, file has %d bytes", end, tf.Warc.Compressed)
			}
			for _, c := range tf.Captures {
				s, ok := byID[c.RecordID]
				if !ok {
					t.Errorf("capture %s not read", c.RecordID)
					continue
				}
				want := seen{typ: c.WarcType, id: c.RecordID, url: c.URL, date: c.Date, digest: c.PayloadDigest,
					computed: s.computed, offset: c.Offset, length: c.Length, status: c.Status, mime: s.mime,
					payloadLen: c.PayloadLength, identified: s.identified, truncated: s.truncated}
				if c.WarcType == "response" {
					want.computed, want.mime, want.identified = c.PayloadDigest, c.MIME, c.IdentifiedMIME
				}
				if s != want {
					t.Errorf("capture %s:\n got %+v\nwant %+v", c.RecordID, s, want)
				}
				if req := byID[c.RequestID]; req.typ != "request" || req.offset != c.RequestOffset || req.length != c.Offset-c.RequestOffset {
					t.Errorf("request %s = %+v, want offset %d", c.RequestID, req, c.RequestOffset)
				}
				if meta := byID[c.MetadataID]; meta.typ != "metadata" || meta.offset != c.MetadataOffset || c.MetadataOffset != c.Offset+c.Length {
					t.Errorf("metadata %s = %+v, want offset %d", c.MetadataID, meta, c.MetadataOffset)
				}
			}
		})
	}
}

// TestLayouts reads the same records from plain, whole-file-gzip and
// per-record-gzip copies of a corpus file, through seekable and
// non-seekable sources.
func TestLayouts(t *testing.T) {
	shared := sharedDir(t)
	data, err := os.ReadFile(filepath.Join(shared, "corpus", "small.warc.gz"))
	if err != nil {
		t.Fatal(err)
	}
	plain := gunzip(t, data)
	var whole bytes.Buffer
	zw := gzip.NewWriter(&whole)
	zw.Write(plain)
	zw.Close()
	ref := readAll(t, bytes.NewReader(data))
	for _, tc := range []struct {
		name string
		data []byte
	}{{"plain", plain}, {"whole-file-gzip", whole.Bytes()}} {
		for _, seekable := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/seekable=%v", tc.name, seekable), func(t *testing.T) {
				var r io.Reader = bytes.NewReader(tc.data)
				if !seekable {
					r = struct{ io.Reader }{r}
				}
				got := readAll(t, r)
				if len(got) != len(ref) {
					t.Fatalf("%d records, want %d", len(got), len(ref))
				}
				var off int64
				for i := range got {
					g, w := got[i], ref[i]
					if g.offset != off {
						t.Fatalf("record %d offset %d, want uncompressed offset %d", i, g.offset, off)
					}
					off += g.length
					g.offset, g.length, w.offset, w.length = 0, 0, 0, 0
					if g != w {
						t.Fatalf("record %d:\n got %+v\nwant %+v", i, g, w)
					}
				}
				if off != int64(len(plain)) {
					t.Errorf("records cover %d bytes, file has %d", off, len(plain))
				}
			})
		}
	}
}

func gunzip(t testing.TB, data []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// fixture is a small WARC built with Writer, with the offset of every
// record, so damage can be placed precisely.
type fixture struct {
	data    []byte
	offsets []int64 // record starts, plus the end
	ids     []string
}

func buildFixture(t testing.TB, gz bool, n int, lie func(i int) string) fixture {
	t.Helper()
	var buf bytes.Buffer
	w := NewWriter(&buf, gz)
	w.Digests = true
	var fx fixture
	for i := 0; i < n; i++ {
		payload := strings.Repeat(fmt.Sprintf("<p>record %d says hello</p>\n", i), 20+i*7)
		block := "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n\r\n" + payload
		id := fmt.Sprintf("<urn:uuid:00000000-0000-4000-8000-%012d>", i)
		h := Header{{"WARC-Type", "response"}, {"WARC-Record-ID", id}, {"WARC-Date", "2025-10-18T10:11:01Z"},
			{"WARC-Target-URI", fmt.Sprintf("https://example.com/%d", i)}, {"Content-Type", "application/http; msgtype=response"}}
		if lie != nil {
			if cl := lie(i); cl != "" {
				h = append(h, Field{"Content-Length", cl})
			}
		}
		fx.offsets = append(fx.offsets, w.Offset())
		fx.ids = append(fx.ids, id)
		if err := w.WriteRecord(h, []byte(block)); err != nil {
			t.Fatal(err)
		}
	}
	fx.offsets = append(fx.offsets, w.Offset())
	fx.data = buf.Bytes()
	return fx
}

// outcome is what a full read of damaged input produced.
type outcome struct {
	ids      []string
	corrupt  []*CorruptError
	final    error // the error that ended reading (io.EOF when clean)
	newErr   error
	bodyErrs int
}

func readDamaged(r io.Reader) outcome {
	var o outcome
	rd, err := NewReader(r)
	if err != nil {
		o.newErr = err
		return o
	}
	for i := 0; i < 1000; i++ {
		rec, err := rd.Next()
		var ce *CorruptError
		if errors.As(err, &ce) {
			o.corrupt = append(o.corrupt, ce)
			continue
		}
		if err != nil {
			o.final = err
			return o
		}
		body := rec.Body
		if rec.Type == "response" {
			resp, err := ReadHTTPResponse(rec.Body)
			if err != nil {
				o.bodyErrs++
				continue
			}
			body = resp.Body
		}
		if _, err := io.Copy(io.Discard, body); err != nil {
			o.bodyErrs++
			continue
		}
		o.ids = append(o.ids, rec.RecordID())
	}
	o.final = errors.New("reader did not stop")
	return o
}

func TestDamage(t *testing.T) {
	const n = 6
	gz := buildFixture(t, true, n, nil)
	pl := buildFixture(t, false, n, nil)
	cut := func(b []byte, at int64) []byte { return append([]byte(nil), b[:at]...) }
	insert := func(b []byte, at int64, junk string) []byte {
		return append(append(append([]byte(nil), b[:at]...), junk...), b[at:]...)
	}
	// bodyLen is the real block length of fixture record i.
	bodyLen := func(fx fixture, i int) int {
		rd, _ := NewReader(bytes.NewReader(fx.data))
		for j := 0; ; j++ {
			rec, err := rd.Next()
			if err != nil {
				t.Fatal(err)
			}
			if j == i {
				return int(rec.ContentLength())
			}
		}
	}
	lie := func(gzip bool, delta int) fixture {
		base := gz
		if !gzip {
			base = pl
		}
		real := bodyLen(base, 2)
		return buildFixture(t, gzip, n, func(i int) string {
			if i == 2 {
				return fmt.Sprint(real + delta)
			}
			return ""
		})
	}
	flipped := append([]byte(nil), gz.data...)
	mid := (gz.offsets[2] + gz.offsets[3]) / 2
	for i := mid; i < mid+8; i++ {
		flipped[i] ^= 0x55
	}
	badCRC := append([]byte(nil), gz.data...)
	badCRC[gz.offsets[3]-8] ^= 0xff
	badTail := append([]byte(nil), gz.data...)
	for i := gz.offsets[3] - 14; i < gz.offsets[3]-8; i++ {
		badTail[i] ^= 0xa5
	}
	pngHead := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01\x00")

	type want struct {
		ids      []int  // fixture records read intact, in order
		corrupt  int    // CorruptErrors from Next
		at       int64  // offset of the first CorruptError
		final    error  // what ends reading
		msg      string // substring of the final (or NewReader) error
		newError bool
	}
	cases := []struct {
		name string
		data []byte
		want want
	}{
		{"gzip intact", gz.data, want{ids: []int{0, 1, 2, 3, 4, 5}, final: io.EOF}},
		{"plain intact", pl.data, want{ids: []int{0, 1, 2, 3, 4, 5}, final: io.EOF}},
		{"gzip truncated mid-member", cut(gz.data, gz.offsets[4]+40), want{ids: []int{0, 1, 2, 3}, final: ErrTruncated, msg: fmt.Sprintf("record at offset %d is truncated", gz.offsets[4])}},
		{"gzip truncated in trailer", cut(gz.data, gz.offsets[6]-3), want{ids: []int{0, 1, 2, 3, 4}, final: ErrTruncated, msg: fmt.Sprintf("offset %d", gz.offsets[5])}},
		{"plain truncated mid-block", cut(pl.data, pl.offsets[3]+300), want{ids: []int{0, 1, 2}, final: ErrTruncated, msg: fmt.Sprintf("offset %d", pl.offsets[3])}},
		{"gzip garbage between records", insert(gz.data, gz.offsets[3], "this is not gzip\n\x1f\x8b junk"), want{ids: []int{0, 1, 2, 3, 4, 5}, corrupt: 1, at: gz.offsets[3], final: io.EOF}},
		{"plain garbage between records", insert(pl.data, pl.offsets[3], "garbage line\nmore garbage WARC/1.0 not at line start\n"), want{ids: []int{0, 1, 2, 3, 4, 5}, corrupt: 1, at: pl.offsets[3], final: io.EOF}},
		{"gzip bad member in the middle", flipped, want{ids: []int{0, 1, 3, 4, 5}, corrupt: 1, at: gz.offsets[2], final: io.EOF}},
		{"gzip bad CRC", badCRC, want{ids: []int{0, 1, 3, 4, 5}, corrupt: 1, at: gz.offsets[2], final: io.EOF}},
		{"gzip bad deflate tail", badTail, want{ids: []int{0, 1, 3, 4, 5}, corrupt: 1, at: gz.offsets[2], final: io.EOF}},
		{"gzip Content-Length too long", lie(true, 100).data, want{ids: []int{0, 1, 3, 4, 5}, corrupt: 1, at: gz.offsets[2], final: io.EOF}},
		{"gzip Content-Length too short", lie(true, -100).data, want{ids: []int{0, 1, 3, 4, 5}, corrupt: 1, at: gz.offsets[2], final: io.EOF}},
		{"plain Content-Length too long", lie(false, 100).data, want{ids: []int{0, 1, 3, 4, 5}, corrupt: 1, at: pl.offsets[2], final: io.EOF}},
		{"plain Content-Length too short", lie(false, -100).data, want{ids: []int{0, 1, 3, 4, 5}, corrupt: 1, at: pl.offsets[2], final: io.EOF}},
		{"empty file", nil, want{newError: true, msg: "warc: empty file"}},
		{"png file", pngHead, want{newError: true, msg: `not a WARC file: found image/png data starting "\x89PNG`}},
		{"html file", []byte("<!DOCTYPE html><html><body>hi</body></html>"), want{newError: true, msg: "not a WARC file: found text/html data"}},
		{"gzipped html", gzipBytes([]byte("<html><head><title>x</title></head></html>")), want{newError: true, msg: "not a WARC file: gzip holding text/html data"}},
	}
	for _, tc := range cases {
		for _, seekable := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/seekable=%v", tc.name, seekable), func(t *testing.T) {
				var r io.Reader = bytes.NewReader(tc.data)
				if !seekable {
					r = struct{ io.Reader }{r}
				}
				o := readDamaged(r)
				t.Logf("records %d, corrupt %v, body errors %d, final %v, NewReader %v", len(o.ids), o.corrupt, o.bodyErrs, o.final, o.newErr)
				w := tc.want
				if w.newError {
					if o.newErr == nil || !strings.Contains(o.newErr.Error(), w.msg) || strings.Contains(o.newErr.Error(), "\n") {
						t.Fatalf("NewReader error %v, want one line containing %q", o.newErr, w.msg)
					}
					return
				}
				if o.newErr != nil {
					t.Fatal(o.newErr)
				}
				var wantIDs []string
				for _, i := range w.ids {
					wantIDs = append(wantIDs, gz.ids[i])
				}
				// Without seeking, a lie in plain WARC or a damaged deflate
				// stream may also cost the records read past; every record
				// before the damage and the last one must still come back.
				lossy := !seekable && (tc.name == "plain Content-Length too long" || tc.name == "gzip bad deflate tail")
				if lossy {
					if len(o.ids) < 3 || o.ids[len(o.ids)-1] != gz.ids[n-1] || strings.Join(o.ids[:2], ",") != strings.Join(wantIDs[:2], ",") {
						t.Errorf("records %v, want at least %v and the last", o.ids, wantIDs[:2])
					}
				} else if strings.Join(o.ids, ",") != strings.Join(wantIDs, ",") {
					t.Errorf("records\n got %v\nwant %v", o.ids, wantIDs)
				}
				if len(o.corrupt) != w.corrupt {
					t.Errorf("%d corrupt errors %v, want %d", len(o.corrupt), o.corrupt, w.corrupt)
				}
				if len(o.corrupt) > 0 {
					ce := o.corrupt[0]
					if ce.Offset != w.at || !strings.Contains(ce.Error(), fmt.Sprintf("offset %d", w.at)) {
						t.Errorf("first corrupt error %q, want offset %d", ce, w.at)
					}
				}
				if !errors.Is(o.final, w.final) || strings.Contains(o.final.Error(), "\n") {
					t.Errorf("final error %v, want %v", o.final, w.final)
				}
				if w.msg != "" && !strings.Contains(o.final.Error(), w.msg) {
					t.Errorf("final error %q, want it to contain %q", o.final, w.msg)
				}
			})
		}
	}
}

func gzipBytes(b []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}

// TestBodyAfterNext checks that a stale Body does not read the next record.
func TestBodyAfterNext(t *testing.T) {
	fx := buildFixture(t, true, 2, nil)
	rd, err := NewReader(bytes.NewReader(fx.data))
	if err != nil {
		t.Fatal(err)
	}
	first, err := rd.Next()
	if err != nil {
		t.Fatal(err)
	}
	if first.Length != 0 {
		t.Errorf("Length %d before the record was consumed", first.Length)
	}
	if _, err := rd.Next(); err != nil {
		t.Fatal(err)
	}
	if first.Length != fx.offsets[1]-fx.offsets[0] {
		t.Errorf("Length %d after Next, want %d", first.Length, fx.offsets[1]-fx.offsets[0])
	}
	if n, err := first.Body.Read(make([]byte, 10)); n != 0 || err == nil {
		t.Errorf("stale Body read %d bytes, err %v", n, err)
	}
	if _, err := rd.Next(); err != io.EOF {
		t.Fatalf("Next = %v, want io.EOF", err)
	}
	if got := rd.InputOffset(); got != int64(len(fx.data)) {
		t.Errorf("InputOffset %d at the end, file has %d bytes", got, len(fx.data))
	}
}

// TestRandomDamage flips one byte inside a random member of a real shard,
// many times. With a seekable source, only the damaged record may be lost;
// without one, every record before it must still come back.
func TestRandomDamage(t *testing.T) {
	shared := sharedDir(t)
	data, err := os.ReadFile(filepath.Join(shared, "corpus", "small.warc.gz"))
	if err != nil {
		t.Fatal(err)
	}
	ref := readAll(t, bytes.NewReader(data))
	rng := uint64(1)
	next := func(n int) int { // xorshift: deterministic, no math/rand seeding
		rng ^= rng << 13
		rng ^= rng >> 7
		rng ^= rng << 17
		return int(rng % uint64(n))
	}
	for trial := 0; trial < 40; trial++ {
		k := next(len(ref))
		pos := ref[k].offset + int64(next(int(ref[k].length)))
		bad := append([]byte(nil), data...)
		bad[pos] ^= byte(1 + next(255))
		for _, seekable := range []bool{true, false} {
			var r io.Reader = bytes.NewReader(bad)
			if !seekable {
				r = struct{ io.Reader }{r}
			}
			o := readDamaged(r)
			if o.final != io.EOF {
				t.Fatalf("trial %d (record %d, byte %d, seekable=%v): final error %v", trial, k, pos, seekable, o.final)
			}
			got := map[string]bool{}
			for _, id := range o.ids {
				got[id] = true
			}
			for i, s := range ref {
				if i == k || (!seekable && i > k) {
					continue
				}
				if !got[s.id] {
					t.Errorf("trial %d (record %d, byte %d, seekable=%v): record %d lost; corrupt %v", trial, k, pos, seekable, i, o.corrupt)
					break
				}
			}
			if !got[ref[k].id] && len(o.corrupt) == 0 && o.bodyErrs == 0 {
				t.Errorf("trial %d: record %d lost without an error", trial, k)
			}
		}
	}
}
