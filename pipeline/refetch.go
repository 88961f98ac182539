package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/open-markdown/ccrawl/dataset"
	"github.com/open-markdown/ccrawl/extract"
	"github.com/open-markdown/ccrawl/fetch"
	"github.com/open-markdown/ccrawl/lang"
	"github.com/open-markdown/ccrawl/warc"
)

// RefetchConfig is what a refetch run shares across shards.
type RefetchConfig struct {
	OutDir      string
	Crawl       string
	Fetcher     *fetch.Fetcher
	Extractor   extract.Extractor
	DedupDigest bool
	Lang        LangFilter
	FetchOnly   bool // keep raw HTML in an `html` column; no Markdown, language or simhash
	ToolVersion string
}

// target is one URL of a shard, with what the original capture said.
type target struct {
	url, recordID, date string
}

// refetchJob is one fetched URL on its way to the writer.
type refetchJob struct {
	t    target
	res  *fetch.Result
	done chan struct{}
	converted
}

// RefetchShard fetches every URL of one shard live and writes one row per
// URL, failures included: a dead host is a result.
func RefetchShard(ctx context.Context, cfg *RefetchConfig, pool *Pool, in io.Reader, sh Shard) ShardResult {
	res := ShardResult{Shard: sh}
	go lang.Load() // overlap the model's one-time load with fetching
	var st ShardStats
	// Phase "extract": the URL list. Only URLs are held (tens of bytes a
	// record), never pages.
	t0 := time.Now()
	targets, crawl, listErr := listTargets(in, cfg, sh, &st)
	st.ExtractSecs = time.Since(t0).Seconds()
	res.Crawl = crawl
	if listErr != nil && len(targets) == 0 {
		res.Err, res.Status, res.Stats = fmt.Errorf("%s: %w", sh.Name, listErr), StatusFailed, st
		return res
	}

	path := dataset.ShardPath(cfg.OutDir, crawl, sh.Number)
	meta := map[string]string{
		dataset.MetaSchema: dataset.SchemaRefetch, dataset.MetaVersion: cfg.ToolVersion,
		dataset.MetaCrawl: crawl, dataset.MetaShard: fmt.Sprintf("%06d", sh.Number),
	}
	var write func(dataset.RefetchRow, []byte) error
	var closeW func() (int64, error)
	var abort func()
	if cfg.FetchOnly {
		w, err := dataset.Create[dataset.RefetchRowHTML](path, meta, func(r *dataset.RefetchRowHTML) int64 { return int64(len(r.HTML) + 512) })
		if err != nil {
			res.Err, res.Status = err, StatusFailed
			return res
		}
		write = func(r dataset.RefetchRow, html []byte) error {
			return w.Write(dataset.RefetchRowHTML{RefetchRow: r, HTML: string(html)})
		}
		closeW, abort = w.Close, w.Abort
	} else {
		w, err := dataset.Create[dataset.RefetchRow](path, meta, func(r *dataset.RefetchRow) int64 { return int64(len(r.Markdown) + len(r.RespHeaders) + 512) })
		if err != nil {
			res.Err, res.Status = err, StatusFailed
			return res
		}
		write = func(r dataset.RefetchRow, _ []byte) error { return w.Write(r) }
		closeW, abort = w.Close, w.Abort
	}

	// Phase "fetch" + "convert": a bounded window of URLs in flight, results
	// written in shard order.
	// Results beyond the fetch workers wait here for the writer; a small
	// margin keeps a slow head-of-line URL from stalling the pool without
	// letting finished pages pile up.
	window := cfg.Fetcher.Options().Workers + 256
	fctx, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs := make(chan fetch.Job)
	results := make(chan *fetch.Result)
	go cfg.Fetcher.Run(fctx, jobs, results)
	slots := make(chan struct{}, window)
	ordered := make([]*refetchJob, len(targets))
	for i := range ordered {
		ordered[i] = &refetchJob{t: targets[i], done: make(chan struct{})}
	}
	go func() {
		defer close(jobs)
		for i, t := range targets {
			select {
			case slots <- struct{}{}:
			case <-fctx.Done():
				return
			}
			select {
			case jobs <- fetch.Job{Index: i, URL: t.url}:
			case <-fctx.Done():
				return
			}
		}
	}()
	go func() {
		for r := range results {
			j := ordered[r.Index]
			j.res = r
			if r.ErrClass == "" && !cfg.FetchOnly && isHTML(r.ContentType) {
				pool.Submit(func() { convertFetched(cfg, j); close(j.done) })
			} else {
				close(j.done)
			}
		}
	}()

	extractor := ""
	if cfg.Extractor != nil && !cfg.FetchOnly {
		extractor = cfg.Extractor.Version()
	}
	seen := map[string]struct{}{}
	var writeTime time.Duration
	var writeErr error
	for i, j := range ordered {
		select {
		case <-j.done:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		r := j.res
		ordered[i] = nil // release as we go
		<-slots
		st.FetchSecs += r.Duration.Seconds()
		st.ConvertSecs += j.took.Seconds()
		row := dataset.RefetchRow{
			DocID: dataset.DocID(j.t.url), URL: j.t.url, FinalURL: r.FinalURL, Host: hostOf(j.t.url),
			IPAddress: r.IPAddress, CrawlID: crawl, CrawlDate: j.t.date, WARCRecordID: j.t.recordID,
			FetchedAt: r.FetchedAt.UnixMilli(), Status: int32(r.Status), ContentType: r.ContentType,
			FetchDurationMS: r.Duration.Milliseconds(), TTFBMS: r.TTFB.Milliseconds(),
			ETag: r.ETag, LastModified: r.LastModified, RespHeaders: r.RespHeaders,
			BodyLength: r.BodyLength, Digest: r.Digest, Error: r.ErrClass,
		}
		if r.FetchedAt.IsZero() {
			row.FetchedAt = 0
		}
		if r.ErrClass != "" {
			// Failures are rows, never collapsed and never language-filtered.
			if st.FetchFailed == nil {
				st.FetchFailed = map[string]int64{}
			}
			st.FetchFailed[r.ErrClass]++
		} else {
			if cfg.DedupDigest && r.Digest != "" {
				if _, dup := seen[r.Digest]; dup {
					st.DigestDropped++
					st.skip(SkipDigestDup)
					continue
				}
				seen[r.Digest] = struct{}{}
			}
			if isHTML(r.ContentType) {
				row.HTMLLength = int64(len(r.Body))
				st.Candidates++
			}
			if !cfg.FetchOnly {
				if j.err != nil {
					st.extractFailed(j.err)
				}
				if j.md != "" {
					st.Documents++
					st.lang(j.lang.Code)
					row.Markdown, row.MarkdownLength = j.md, int64(len(j.md))
					row.Language, row.LanguageConfidence, row.Simhash = j.lang.Code, j.lang.Confidence, j.simhash
					row.Extractor = extractor
				}
				if !cfg.Lang.Keep(row.Language, row.LanguageConfidence) {
					st.LangDropped++
					st.skip(SkipLangDropped)
					continue
				}
			}
		}
		t := time.Now()
		var html []byte
		if r.ErrClass == "" && isHTML(r.ContentType) {
			html = r.Body
		}
		if err := write(row, html); err != nil && writeErr == nil {
			writeErr = err
		}
		writeTime += time.Since(t)
		st.wrote(row.Language, row.HTMLLength, row.MarkdownLength)
	}
	if ctx.Err() != nil {
		abort()
		cancel()
		res.Err, res.Status, res.Stats = ctx.Err(), StatusAbandoned, st
		return res
	}
	if writeErr != nil {
		abort()
		res.Err, res.Status, res.Stats = fmt.Errorf("%s: %w", sh.Name, writeErr), StatusFailed, st
		return res
	}
	t := time.Now()
	size, err := closeW()
	writeTime += time.Since(t)
	st.WriteSecs = writeTime.Seconds()
	st.ParquetBytes = size
	res.Stats = st
	if err != nil {
		res.Err, res.Status = fmt.Errorf("%s: %w", sh.Name, err), StatusFailed
		return res
	}
	res.Path, res.Status = path, StatusOK
	if listErr != nil {
		res.Err, res.Status = fmt.Errorf("%s: %w", sh.Name, listErr), StatusFailed
	}
	return res
}

func convertFetched(cfg *RefetchConfig, j *refetchJob) {
	t := time.Now()
	md, err := cfg.Extractor.Extract(extract.Page{URL: j.res.FinalURL, Body: j.res.Body, ContentType: j.res.ContentType})
	j.converted = finish(md, err, t)
}

// listTargets reads the URLs of a shard's response records (each URL once,
// in WARC order) and the crawl id.
func listTargets(in io.Reader, cfg *RefetchConfig, sh Shard, st *ShardStats) ([]target, string, error) {
	rd, err := warc.NewReader(in)
	if err != nil {
		return nil, pickCrawl(cfg.Crawl, sh.Crawl, "", sh.Name), err
	}
	var out []target
	seen := map[string]bool{}
	fromInfo := ""
	defer func() { st.WARCBytes = rd.InputOffset() }()
	for {
		rec, err := rd.Next()
		if err == io.EOF {
			break
		}
		var ce *warc.CorruptError
		if errors.As(err, &ce) {
			st.Records++
			st.skip(SkipCorrupt)
			continue
		}
		if err != nil {
			return out, pickCrawl(cfg.Crawl, sh.Crawl, fromInfo, sh.Name), err
		}
		st.Records++
		switch rec.Type {
		case "warcinfo":
			if fromInfo == "" {
				fromInfo = warcinfoCrawl(rec.Body)
			}
		case "response":
			u := rec.Header.Get("WARC-Target-URI")
			if u != "" && !seen[u] {
				seen[u] = true
				out = append(out, target{url: u, recordID: rec.Header.Get("WARC-Record-ID"), date: crawlDate(rec.Header.Get("WARC-Date"))})
			}
		}
	}
	return out, pickCrawl(cfg.Crawl, sh.Crawl, fromInfo, sh.Name), nil
}
