package pipeline

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha1"
	"encoding/base32"
	"errors"
	"fmt"
	"io"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/open-markdown/ccrawl/dataset"
	"github.com/open-markdown/ccrawl/extract"
	"github.com/open-markdown/ccrawl/lang"
	"github.com/open-markdown/ccrawl/simhash"
	"github.com/open-markdown/ccrawl/warc"
)

// ExportConfig is what one export needs besides its input. It is shared by
// every shard of a run and read-only while shards run.
type ExportConfig struct {
	OutDir         string
	Crawl          string // --crawl; "" means detect per shard
	Extractor      extract.Extractor
	MaxRecordBytes int64
	DedupDigest    bool
	Lang           LangFilter
	ToolVersion    string
	// WET passes Common Crawl's extracted text (conversion records of WET
	// shards) through unchanged instead of extracting HTML.
	WET bool
}

// LangFilter keeps rows of one language above a confidence floor. The zero
// value keeps everything.
type LangFilter struct {
	Code          string
	MinConfidence float64
}

// Keep reports whether a row with this verdict passes. An empty language
// ("could not tell") never passes an active filter.
func (f LangFilter) Keep(code string, conf float64) bool {
	if f.Code == "" {
		return true
	}
	return code != "" && code == f.Code && conf >= f.MinConfidence
}

// ShardResult is one shard's outcome.
type ShardResult struct {
	Shard  Shard
	Crawl  string
	Path   string // final Parquet path ("" if none was written)
	Stats  ShardStats
	Err    error // non-nil: the shard failed (a file may still hold the rows before the damage)
	Status string
}

// window bounds the documents in flight per shard (read but not yet
// written): memory stays bounded whatever the shard size.
const windowPerWorker = 4

// docJob is one candidate document on its way through the pool.
type docJob struct {
	url, recordID, date, ctype string
	body                       []byte
	htmlLen                    int64
	done                       chan struct{}
	converted                  // filled by the worker
}

// converted is what the worker stage makes of one page, for export and
// refetch alike.
type converted struct {
	md      string
	err     error
	lang    lang.Result
	simhash uint64
	took    time.Duration
}

// finish completes a conversion started at start: Markdown with no text is
// ErrEmpty; otherwise it gets the labels every row carries.
func finish(md string, err error, start time.Time) converted {
	if err == nil && strings.TrimSpace(md) == "" {
		md, err = "", extract.ErrEmpty
	}
	c := converted{md: md, err: err}
	if err == nil {
		c.lang, _ = lang.DetectMarkdown(md)
		c.simhash = simhash.Fingerprint(md)
	}
	c.took = time.Since(start)
	return c
}

// ExportShard converts one WARC stream into one Parquet file. Rows come out
// in WARC order whatever the number of workers, so the same input gives the
// same bytes.
func ExportShard(ctx context.Context, cfg *ExportConfig, pool *Pool, workers int, in io.Reader, sh Shard) ShardResult {
	res := ShardResult{Shard: sh}
	go lang.Load() // overlap the model's one-time load with the first extractions
	// The reader gets the file itself: on a seekable input it recovers from
	// damage by seeking back, losing only the broken record.
	rd, err := warc.NewReader(in)
	if err != nil {
		res.Err = fmt.Errorf("%s: %w", sh.Name, err)
		res.Status = StatusFailed
		return res
	}
	window := workers * windowPerWorker
	if window < 4 {
		window = 4
	}
	ordered := make(chan *docJob, window)
	crawlCh := make(chan string, 1)
	var readStats ShardStats
	var readErr error

	go func() {
		defer close(ordered)
		readErr = readShard(ctx, cfg, pool, rd, sh, ordered, crawlCh, &readStats)
	}()

	crawl := <-crawlCh
	res.Crawl = crawl
	path := dataset.ShardPath(cfg.OutDir, crawl, sh.Number)
	w, err := dataset.Create[dataset.Row](path, map[string]string{
		dataset.MetaSchema:  dataset.SchemaExport,
		dataset.MetaVersion: cfg.ToolVersion,
		dataset.MetaCrawl:   crawl,
		dataset.MetaShard:   fmt.Sprintf("%06d", sh.Number),
	}, rowSize)
	if err != nil {
		for j := range ordered { // let the reader finish
			<-j.done
		}
		res.Err = fmt.Errorf("%s: %w", sh.Name, err)
		res.Status = StatusFailed
		return res
	}
	var ws ShardStats
	var writeTime time.Duration
	var writeErr error
	var version string
	if cfg.WET {
		version = "wet@" + crawl
	} else {
		version = cfg.Extractor.Version()
	}
	for j := range ordered {
		<-j.done
		if writeErr != nil || ctx.Err() != nil {
			continue // drain
		}
		ws.ExtractSecs += j.took.Seconds()
		if j.err != nil {
			ws.extractFailed(j.err)
			continue
		}
		ws.Documents++
		ws.lang(j.lang.Code)
		if !cfg.Lang.Keep(j.lang.Code, j.lang.Confidence) {
			ws.LangDropped++
			ws.skip(SkipLangDropped)
			continue
		}
		row := dataset.Row{
			DocID:              dataset.DocID(j.url),
			URL:                j.url,
			Host:               hostOf(j.url),
			CrawlDate:          j.date,
			WARCRecordID:       j.recordID,
			HTMLLength:         j.htmlLen,
			MarkdownLength:     int64(len(j.md)),
			Markdown:           j.md,
			Language:           j.lang.Code,
			LanguageConfidence: j.lang.Confidence,
			Extractor:          version,
			Simhash:            j.simhash,
		}
		t := time.Now()
		if err := w.Write(row); err != nil {
			writeErr = err
		}
		writeTime += time.Since(t)
		ws.wrote(row.Language, row.HTMLLength, row.MarkdownLength)
	}
	if ctx.Err() != nil {
		w.Abort()
		res.Err = ctx.Err()
		res.Status = StatusAbandoned
		return res
	}
	if writeErr != nil {
		w.Abort()
		res.Err = fmt.Errorf("%s: %w", sh.Name, writeErr)
		res.Status = StatusFailed
		return res
	}
	if readErr != nil && ws.Rows == 0 {
		// Nothing before the damage: leave no file behind.
		w.Abort()
		ws.Add(readStats)
		res.Stats = ws
		res.Err = fmt.Errorf("%s: %w", sh.Name, readErr)
		res.Status = StatusFailed
		return res
	}
	t := time.Now()
	size, err := w.Close()
	writeTime += time.Since(t)
	if err != nil {
		res.Err = fmt.Errorf("%s: %w", sh.Name, err)
		res.Status = StatusFailed
		return res
	}
	ws.ParquetBytes = size
	ws.WriteSecs = writeTime.Seconds()
	ws.Add(readStats)
	ws.WARCBytes = rd.InputOffset()
	res.Stats = ws
	res.Path = path
	res.Status = StatusOK
	if readErr != nil {
		// The rows before the damage are kept in the file, but the shard is
		// not complete: it is reported failed and not entered in the ledger,
		// so a re-run tries it again.
		res.Err = fmt.Errorf("%s: %w", sh.Name, readErr)
		res.Status = StatusFailed
	}
	return res
}

// readShard is the reader stage: it classifies every record, drops digest
// duplicates before any decoding, and feeds candidates to the pool in order.
func readShard(ctx context.Context, cfg *ExportConfig, pool *Pool, rd *warc.Reader, sh Shard, ordered chan<- *docJob, crawlCh chan<- string, st *ShardStats) error {
	crawlSent := false
	sendCrawl := func(fromWarcinfo string) {
		if crawlSent {
			return
		}
		crawlSent = true
		crawlCh <- pickCrawl(cfg.Crawl, sh.Crawl, fromWarcinfo, sh.Name)
	}
	defer sendCrawl("")
	seen := map[string]struct{}{}
	sawResponse := false
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		rec, err := rd.Next()
		if err == io.EOF {
			if cfg.WET && st.Candidates == 0 && sawResponse {
				return fmt.Errorf("--extractor wet reads WET files (conversion records) but this is a WARC file of HTTP responses; use an HTML engine for it")
			}
			return nil
		}
		var ce *warc.CorruptError
		if errors.As(err, &ce) {
			st.Records++
			st.skip(SkipCorrupt)
			continue
		}
		if err != nil {
			return err
		}
		st.Records++
		switch rec.Type {
		case "warcinfo":
			st.skip(SkipWarcinfo)
			sendCrawl(warcinfoCrawl(rec.Body))
			continue
		case "request":
			st.skip(SkipRequest)
		case "metadata":
			st.skip(SkipMetadata)
		case "revisit":
			st.skip(SkipRevisit)
		case "response":
			sawResponse = true
		case "conversion":
			if !cfg.WET {
				st.skip(SkipOtherType)
			}
		default:
			st.skip(SkipOtherType)
		}
		sendCrawl("")
		if cfg.WET {
			if rec.Type == "conversion" {
				if err := queueWET(cfg, pool, rec, ordered, seen, st); err != nil {
					countDamage(st, err)
				}
			} else if rec.Type == "response" {
				st.skip(SkipOtherType)
			}
			continue
		}
		if rec.Type != "response" {
			continue
		}
		resp, err := warc.ReadHTTPResponse(rec.Body)
		if err != nil {
			countDamage(st, err)
			continue
		}
		if resp.Status != 200 {
			st.skip(SkipNon200)
			continue
		}
		if !isHTML(resp.ContentType()) && !isHTML(rec.Header.Get("WARC-Identified-Payload-Type")) {
			st.skip(SkipNonHTML)
			continue
		}
		st.Candidates++
		digest := rec.Header.Get("WARC-Payload-Digest")
		if cfg.DedupDigest && digest != "" {
			// The digest the WARC carries decides before any byte of the
			// payload is decoded: a duplicate costs a map lookup.
			if _, dup := seen[digest]; dup {
				st.DigestDropped++
				st.skip(SkipDigestDup)
				continue
			}
			seen[digest] = struct{}{}
		}
		body, cut, err := readCapped(resp.Body, cfg.MaxRecordBytes, rec.Header.Get("Content-Length"))
		if err != nil {
			countDamage(st, err)
			continue
		}
		if cut {
			st.Cut++
		}
		if cfg.DedupDigest && digest == "" {
			d := sha1Digest(body)
			if _, dup := seen[d]; dup {
				st.DigestDropped++
				st.skip(SkipDigestDup)
				continue
			}
			seen[d] = struct{}{}
		}
		j := &docJob{
			url:      rec.Header.Get("WARC-Target-URI"),
			recordID: rec.Header.Get("WARC-Record-ID"),
			date:     crawlDate(rec.Header.Get("WARC-Date")),
			ctype:    resp.Header.Get("Content-Type"), // with its charset parameter, for decoding
			body:     body,
			htmlLen:  int64(len(body)),
			done:     make(chan struct{}),
		}
		ordered <- j
		pool.Submit(func() { convert(cfg, j); close(j.done) })
	}
}

// queueWET turns a WET conversion record (Common Crawl's extracted text)
// into a document that passes through unchanged.
func queueWET(cfg *ExportConfig, pool *Pool, rec *warc.Record, ordered chan<- *docJob, seen map[string]struct{}, st *ShardStats) error {
	st.Candidates++
	body, cut, err := readCapped(rec.Body, cfg.MaxRecordBytes, rec.Header.Get("Content-Length"))
	if err != nil {
		return err
	}
	if cut {
		st.Cut++
	}
	if cfg.DedupDigest {
		d := rec.Header.Get("WARC-Block-Digest")
		if d == "" {
			d = sha1Digest(body)
		}
		if _, dup := seen[d]; dup {
			st.DigestDropped++
			st.skip(SkipDigestDup)
			return nil
		}
		seen[d] = struct{}{}
	}
	j := &docJob{
		url: rec.Header.Get("WARC-Target-URI"), recordID: rec.Header.Get("WARC-Record-ID"),
		date: crawlDate(rec.Header.Get("WARC-Date")), ctype: "text/plain", body: body,
		htmlLen: int64(len(body)), done: make(chan struct{}),
	}
	ordered <- j
	pool.Submit(func() { convert(cfg, j); close(j.done) })
	return nil
}

// countDamage counts a record that failed while its block was read. A
// damaged record (*warc.CorruptError) is reported again by the next Next,
// which counts it; only other failures (a malformed HTTP head) count here.
func countDamage(st *ShardStats, err error) {
	var ce *warc.CorruptError
	if !errors.As(err, &ce) {
		st.skip(SkipCorrupt)
	}
}

// convert is the worker stage: extraction, then the labels every row carries.
func convert(cfg *ExportConfig, j *docJob) {
	t := time.Now()
	var md string
	var err error
	if cfg.WET {
		md = string(j.body) // Common Crawl's text, unchanged
	} else {
		md, err = cfg.Extractor.Extract(extract.Page{URL: j.url, Body: j.body, ContentType: j.ctype})
	}
	j.body = nil
	j.converted = finish(md, err, t)
}

func rowSize(r *dataset.Row) int64 { return int64(len(r.Markdown) + len(r.URL) + 128) }

// readCapped reads at most max bytes of body; cut reports that more followed.
func readCapped(body io.Reader, max int64, contentLength string) ([]byte, bool, error) {
	var hint int64
	fmt.Sscan(contentLength, &hint)
	if hint <= 0 || hint > max {
		hint = 64 << 10
	}
	buf := bytes.NewBuffer(make([]byte, 0, hint+512))
	n, err := io.Copy(buf, io.LimitReader(body, max))
	if err != nil {
		return nil, false, err
	}
	if n < max {
		return buf.Bytes(), false, nil
	}
	var one [1]byte
	m, _ := body.Read(one[:])
	return buf.Bytes(), m > 0, nil
}

func sha1Digest(b []byte) string {
	sum := sha1.Sum(b)
	return "sha1:" + base32.StdEncoding.EncodeToString(sum[:])
}

func isHTML(ctype string) bool {
	ct := strings.ToLower(strings.TrimSpace(ctype))
	if i := strings.IndexByte(ct, ';'); i >= 0 {
		ct = strings.TrimSpace(ct[:i])
	}
	return ct == "text/html" || ct == "application/xhtml+xml"
}

func hostOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return strings.ToLower(u.Hostname())
}

// crawlDate turns a WARC-Date into YYYY-MM-DD (UTC).
func crawlDate(s string) string {
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t.UTC().Format("2006-01-02")
	}
	if len(s) >= 10 {
		return s[:10]
	}
	return s
}

var crawlIDRe = regexp.MustCompile(`CC-MAIN-\d{4}-\d{2}`)

// pickCrawl chooses the crawl id: --crawl, else the source's (manifest),
// else the warcinfo record's isPartOf, else the file name, else "local".
func pickCrawl(flag, source, warcinfo, name string) string {
	for _, c := range []string{flag, source, warcinfo} {
		if c != "" {
			return c
		}
	}
	if m := crawlIDRe.FindString(name); m != "" {
		return m
	}
	return "local"
}

// warcinfoCrawl reads isPartOf from a warcinfo block (WARC fields).
func warcinfoCrawl(block io.Reader) string {
	sc := bufio.NewScanner(io.LimitReader(block, 64<<10))
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.EqualFold(strings.TrimSpace(k), "isPartOf") {
			v = strings.TrimSpace(v)
			if m := crawlIDRe.FindString(v); m != "" {
				return m
			}
			return v
		}
	}
	return ""
}
