package sample

import (
	"bytes"
	"flag"
	"html"
	"image/png"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/text/encoding/htmlindex"

	"github.com/open-markdown/ccrawl/warc"
)

const regenerate = "go run ./internal/sample/gen -out testdata/sample.warc.gz (or go test ./internal/sample -update)"

var update = flag.Bool("update", false, "rewrite testdata/sample.warc.gz and sample.answers.json from the generator")

// committed loads the sample files from testdata/ at the module root.
func committed(t testing.TB) (warcBytes []byte, truth *Truth) {
	t.Helper()
	wp, tp, err := Paths(".")
	if err != nil {
		t.Fatal(err)
	}
	w, err := os.ReadFile(wp)
	if err != nil {
		t.Fatalf("the sample is missing (%v): generate it with %s", err, regenerate)
	}
	f, err := os.Open(tp)
	if err != nil {
		t.Fatalf("the truth file is missing (%v): generate it with %s", err, regenerate)
	}
	defer f.Close()
	tr, err := ReadTruth(f)
	if err != nil {
		t.Fatal(err)
	}
	return w, tr
}

// TestGoldenBytes regenerates into a temp dir, as the gen command does,
// and requires byte equality with the committed files.
func TestGoldenBytes(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "sample.warc.gz")
	var w, tr bytes.Buffer
	if err := Write(&w, &tr); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(out, w.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(TruthPath(out), tr.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	wp, tp, err := Paths(".")
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(wp, w.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(tp, tr.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, pair := range [][2]string{{out, wp}, {TruthPath(out), tp}} {
		got, err := os.ReadFile(pair[0])
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(pair[1])
		if err != nil {
			t.Fatalf("%v: generate it with %s", err, regenerate)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from what the generator writes (%d vs %d bytes): regenerate with %s and commit both files",
				pair[1], len(want), len(got), regenerate)
		}
	}
	// A second run must give the same bytes: nothing may depend on the
	// clock, map order or randomness.
	var w2, tr2 bytes.Buffer
	if err := Write(&w2, &tr2); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(w.Bytes(), w2.Bytes()) || !bytes.Equal(tr.Bytes(), tr2.Bytes()) {
		t.Error("two runs of Write gave different bytes")
	}
	if w.Len() >= 200<<10 {
		t.Errorf("the sample is %d bytes, over the 200 KB budget", w.Len())
	}
}

type readRecord struct {
	rec                      *warc.Record
	status                   int
	mime                     string
	payload                  []byte
	blockDigest, payloadHead string
	httpContentLength        string
}

// readSample reads every record of the committed WARC with the project's
// reader, recomputing digests from the bytes.
func readSample(t *testing.T, data []byte) []readRecord {
	t.Helper()
	rd, err := warc.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	var out []readRecord
	for {
		rec, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("record %d: %v", len(out), err)
		}
		block, err := io.ReadAll(rec.Body)
		if err != nil {
			t.Fatalf("record %d: %v", len(out), err)
		}
		r := readRecord{rec: rec, blockDigest: digest(block)}
		if rec.Type == "response" || rec.Type == "revisit" {
			resp, err := warc.ReadHTTPResponse(bytes.NewReader(block))
			if err != nil {
				t.Fatalf("record %s: %v", rec.RecordID(), err)
			}
			r.status, r.mime = resp.Status, resp.ContentType()
			r.httpContentLength = resp.Header.Get("Content-Length")
			if r.payload, err = io.ReadAll(resp.Body); err != nil {
				t.Fatal(err)
			}
		}
		out = append(out, r)
	}
	return out
}

func TestReadBack(t *testing.T) {
	data, truth := committed(t)
	recs := readSample(t, data)
	if len(recs) != truth.WARC.Records || int64(len(data)) != truth.WARC.CompressedBytes {
		t.Fatalf("read %d records, %d bytes; truth says %d, %d", len(recs), len(data), truth.WARC.Records, truth.WARC.CompressedBytes)
	}
	info := recs[0].rec
	if info.Type != "warcinfo" || info.RecordID() != truth.WARC.WarcinfoID || info.Header.Get("WARC-Filename") != truth.WARC.WARCFilename ||
		info.Version != "WARC/1.1" || info.Length != truth.WARC.WarcinfoLength {
		t.Errorf("warcinfo record: %s %s %q %s length %d, truth %+v", info.Type, info.RecordID(), info.Header.Get("WARC-Filename"), info.Version, info.Length, truth.WARC)
	}
	if len(truth.Captures)*3+1 != len(recs) {
		t.Fatalf("%d captures need %d records, read %d", len(truth.Captures), len(truth.Captures)*3+1, len(recs))
	}
	for i, c := range truth.Captures {
		req, resp, meta := recs[1+3*i], recs[2+3*i], recs[3+3*i]
		where := c.URL
		for _, r := range []readRecord{req, resp, meta} {
			if r.rec.Version != "WARC/1.1" || r.rec.TargetURI() != c.URL || r.rec.Header.Get("WARC-Date") != c.Date ||
				r.rec.Header.Get("WARC-Warcinfo-ID") != truth.WARC.WarcinfoID {
				t.Errorf("%s: %s record has %s %q %q", where, r.rec.Type, r.rec.Version, r.rec.TargetURI(), r.rec.Header.Get("WARC-Date"))
			}
			if got := r.rec.Header.Get("WARC-Block-Digest"); got != r.blockDigest {
				t.Errorf("%s: %s WARC-Block-Digest %s, block hashes to %s", where, r.rec.Type, got, r.blockDigest)
			}
		}
		if req.rec.Type != "request" || req.rec.RecordID() != c.RequestID || req.rec.Offset != c.RequestOffset {
			t.Errorf("%s: request %s %s at %d, truth %s at %d", where, req.rec.Type, req.rec.RecordID(), req.rec.Offset, c.RequestID, c.RequestOffset)
		}
		if resp.rec.Type != c.WARCType || resp.rec.RecordID() != c.RecordID || resp.rec.Offset != c.Offset || resp.rec.Length != c.Length {
			t.Errorf("%s: %s %s at %d+%d, truth %s %s at %d+%d", where, resp.rec.Type, resp.rec.RecordID(), resp.rec.Offset, resp.rec.Length,
				c.WARCType, c.RecordID, c.Offset, c.Length)
		}
		if resp.rec.Header.Get("WARC-Concurrent-To") != c.RequestID || meta.rec.Header.Get("WARC-Concurrent-To") != c.RecordID {
			t.Errorf("%s: WARC-Concurrent-To does not link request, response and metadata", where)
		}
		if meta.rec.Type != "metadata" || meta.rec.RecordID() != c.MetadataID || meta.rec.Offset != c.MetadataOffset {
			t.Errorf("%s: metadata %s %s at %d, truth %s at %d", where, meta.rec.Type, meta.rec.RecordID(), meta.rec.Offset, c.MetadataID, c.MetadataOffset)
		}
		if resp.status != c.Status || (resp.mime != c.MIME && c.WARCType == "response") {
			t.Errorf("%s: HTTP %d %s, truth %d %s", where, resp.status, resp.mime, c.Status, c.MIME)
		}
		if int64(len(resp.payload)) != c.PayloadLength {
			t.Errorf("%s: payload %d bytes, truth %d", where, len(resp.payload), c.PayloadLength)
		}
		if c.WARCType == "revisit" {
			if resp.rec.Header.Get("WARC-Profile") != "http://netpreserve.org/warc/1.1/revisit/server-not-modified" || len(resp.payload) != 0 {
				t.Errorf("%s: revisit profile %q with %d payload bytes", where, resp.rec.Header.Get("WARC-Profile"), len(resp.payload))
			}
			continue
		}
		// Common Crawl stores payloads decoded: Content-Length is the
		// stored length, whatever the server sent.
		if resp.httpContentLength != strconv.Itoa(len(resp.payload)) {
			t.Errorf("%s: HTTP Content-Length %q for a %d-byte payload", where, resp.httpContentLength, len(resp.payload))
		}
		got := digest(resp.payload)
		if resp.rec.PayloadDigest() != got || c.PayloadDigest != got {
			t.Errorf("%s: payload hashes to %s; header %s, truth %s", where, got, resp.rec.PayloadDigest(), c.PayloadDigest)
		}
		if resp.rec.IdentifiedPayloadType() != c.IdentifiedMIME {
			t.Errorf("%s: identified type %q, truth %q", where, resp.rec.IdentifiedPayloadType(), c.IdentifiedMIME)
		}
	}
}

// payloads maps URL to payload for the response records.
func payloads(t *testing.T) (map[string][]byte, *Truth) {
	data, truth := committed(t)
	recs := readSample(t, data)
	m := map[string][]byte{}
	for _, r := range recs {
		if r.rec.Type == "response" {
			m[r.rec.TargetURI()] = r.payload
		}
	}
	return m, truth
}

func decode(t *testing.T, b []byte, label string) string {
	t.Helper()
	enc, err := htmlindex.Get(label)
	if err != nil {
		t.Fatalf("charset %q: %v", label, err)
	}
	s, err := enc.NewDecoder().Bytes(b)
	if err != nil {
		t.Fatalf("decoding as %s: %v", label, err)
	}
	// Unescaped so probes (plain text) compare; the page stays HTML enough
	// for the tag searches below.
	return html.UnescapeString(strings.TrimPrefix(string(s), "\uFEFF"))
}

func between(s, from, to string) string {
	i, j := strings.Index(s, from), strings.LastIndex(s, to)
	if i < 0 || j < i {
		return ""
	}
	return s[i : j+len(to)]
}

// TestCharsetCases decodes every charset page with its actual encoding
// and requires the same article as its UTF-8 twin; decoding with a wrong
// label must not give it, or the mislabel would not be one.
func TestCharsetCases(t *testing.T) {
	pl, truth := payloads(t)
	cases := map[string]bool{}
	for _, c := range truth.Captures {
		cs := c.Charset
		if cs == nil {
			continue
		}
		cases[cs.Case] = true
		raw := pl[c.URL]
		if cs.BOM != bytes.HasPrefix(raw, []byte("\xEF\xBB\xBF")) {
			t.Errorf("%s: bom %v, payload starts %q", c.URL, cs.BOM, raw[:3])
		}
		text := decode(t, raw, cs.Actual)
		if !strings.Contains(text, c.Title) || c.TextProbe != "" && !strings.Contains(text, c.TextProbe) {
			t.Errorf("%s: decoded as %s, it lacks its title or text probe", c.URL, cs.Actual)
		}
		for _, label := range []string{cs.Header, cs.Meta, cs.XMLDecl} {
			if label == "" {
				continue
			}
			same := decode(t, raw, label) == text
			if same == cs.Mislabeled {
				t.Errorf("%s: decoding with declared %q gives the right text: %v, but mislabeled is %v", c.URL, label, same, cs.Mislabeled)
			}
		}
		if cs.Meta != "" && !strings.Contains(strings.ToLower(text), "charset="+cs.Meta) && !strings.Contains(strings.ToLower(text), `charset="`+cs.Meta) {
			t.Errorf("%s: meta %q is not declared in the page", c.URL, cs.Meta)
		}
		if cs.UTF8Twin == "" {
			continue
		}
		twin := pl[cs.UTF8Twin]
		if !bytes.Equal(raw, twin) && between(text, "<article>", "</article>") != between(decode(t, twin, "utf-8"), "<article>", "</article>") {
			t.Errorf("%s: the article decoded as %s differs from its UTF-8 twin %s", c.URL, cs.Actual, cs.UTF8Twin)
		}
		if bytes.Equal(raw, twin) {
			t.Errorf("%s: same bytes as its twin; a charset case needs other bytes", c.URL)
		}
	}
	want := []string{"windows-1252-header-only", "iso-8859-1-meta-only", "windows-1251-header-and-meta", "shift_jis-meta-http-equiv",
		"gbk-undeclared", "utf-8-labelled-iso-8859-1", "windows-1252-labelled-utf-8", "utf-8-bom-only", "xhtml-xml-declaration"}
	for _, w := range want {
		if !cases[w] {
			t.Errorf("no capture for charset case %s", w)
		}
	}
}

func TestContent(t *testing.T) {
	pl, truth := payloads(t)
	langs := map[string]int{}
	kinds := map[string]int{}
	digests := map[string]string{}
	byURL := map[string]Capture{}
	for _, c := range truth.Captures {
		byURL[c.URL] = c
		kinds[c.Kind]++
		u, err := url.Parse(c.URL)
		if err != nil {
			t.Fatal(err)
		}
		h := u.Hostname()
		if !strings.HasSuffix(h, ".example") && h != "example.com" && !strings.HasSuffix(h, ".example.com") &&
			!strings.HasSuffix(h, ".example.org") && !strings.HasSuffix(h, ".example.net") {
			t.Errorf("%s: not a reserved example domain", c.URL)
		}
		if c.Kind != "html" {
			continue
		}
		langs[c.Language]++
		if c.MainWords < 150 {
			t.Errorf("%s: %d words of main text, want at least 150", c.URL, c.MainWords)
		}
		text := decode(t, pl[c.URL], c.Charset.Actual)
		main := between(text, "<main>", "</main>")
		if !strings.Contains(main, c.TextProbe) {
			t.Errorf("%s: text probe %q is not in <main>", c.URL, c.TextProbe)
		}
		if !strings.Contains(text, c.BoilerplateProbe) || strings.Contains(main, c.BoilerplateProbe) {
			t.Errorf("%s: boilerplate probe %q must be in the page but outside <main>", c.URL, c.BoilerplateProbe)
		}
		if first, ok := digests[c.PayloadDigest]; ok && c.ExactDupOf != first {
			t.Errorf("%s: same payload as %s, but exact_dup_of is %q", c.URL, first, c.ExactDupOf)
		} else if !ok {
			digests[c.PayloadDigest] = c.URL
			if c.ExactDupOf != "" {
				t.Errorf("%s: exact_dup_of %s, but no earlier capture has its payload", c.URL, c.ExactDupOf)
			}
		}
		if c.NearDupOf != "" {
			orig := pl[c.NearDupOf]
			a, b := between(string(orig), "<article>", "</article>"), between(text, "<article>", "</article>")
			if a == b || bytes.Equal(orig, pl[c.URL]) {
				t.Errorf("%s: near duplicate of %s but the article is identical", c.URL, c.NearDupOf)
			}
			// Only the date line may differ.
			al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
			diff := 0
			for i := range min(len(al), len(bl)) {
				if al[i] != bl[i] {
					diff++
				}
			}
			if len(al) != len(bl) || diff != 1 {
				t.Errorf("%s: near duplicate differs from %s in %d article lines (of %d/%d), want the date line only", c.URL, c.NearDupOf, diff, len(al), len(bl))
			}
		}
	}
	if len(langs) < 10 {
		t.Errorf("%d languages, want at least 10: %v", len(langs), langs)
	}
	for _, k := range []string{"html", "nonhtml", "redirect", "notfound", "revisit", "tiny"} {
		if kinds[k] == 0 {
			t.Errorf("no capture of kind %s", k)
		}
	}
	if len(truth.ExactGroups) != 2 || len(truth.NearGroups) < 1 {
		t.Errorf("%d exact and %d near groups, want 2 and at least 1", len(truth.ExactGroups), len(truth.NearGroups))
	}
	for _, g := range truth.ExactGroups {
		for _, u := range g.URLs {
			if byURL[u].PayloadDigest != g.PayloadDigest {
				t.Errorf("exact group %s: %s has digest %s, group %s", g.ID, u, byURL[u].PayloadDigest, g.PayloadDigest)
			}
		}
	}
	for _, c := range truth.Captures {
		if c.Kind == "redirect" && (c.Location == "" || c.PayloadLength != 0) {
			t.Errorf("%s: redirect with location %q and %d payload bytes", c.URL, c.Location, c.PayloadLength)
		}
		if c.CrawlerContentEncoding != "" && c.Kind != "html" {
			t.Errorf("%s: X-Crawler-Content-Encoding on a non-page", c.URL)
		}
	}
}

// TestBinaryPayloads checks that the hand-built files are what they claim.
func TestBinaryPayloads(t *testing.T) {
	tests := []struct {
		name   string
		b      []byte
		prefix string
		suffix string
	}{
		{"png", tinyPNG(), "\x89PNG\r\n\x1a\n", "IEND\xaeB`\x82"},
		{"pdf", tinyPDF(), "%PDF-1.4\n", "%%EOF\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !bytes.HasPrefix(tt.b, []byte(tt.prefix)) || !bytes.HasSuffix(tt.b, []byte(tt.suffix)) {
				t.Errorf("%s payload starts %q, ends %q", tt.name, tt.b[:8], tt.b[len(tt.b)-8:])
			}
		})
	}
	img, err := png.Decode(bytes.NewReader(tinyPNG()))
	if err != nil || img.Bounds().Dx() != 12 || img.Bounds().Dy() != 12 {
		t.Errorf("the PNG does not decode as a 12x12 image: %v", err)
	}
	// The PDF cross-reference table must point at its objects.
	pdf := string(tinyPDF())
	i := strings.Index(pdf, "xref\n")
	if got := pdf[strings.LastIndex(pdf, "startxref\n")+10:]; !strings.HasPrefix(got, strconv.Itoa(i)+"\n") {
		t.Errorf("startxref %q, xref is at %d", got, i)
	}
}

func BenchmarkWrite(b *testing.B) {
	var n int
	for b.Loop() {
		var w, tr bytes.Buffer
		if err := Write(&w, &tr); err != nil {
			b.Fatal(err)
		}
		n = w.Len()
	}
	b.ReportMetric(float64(n), "warc-bytes")
}
