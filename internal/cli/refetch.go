package cli

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/open-markdown/ccrawl/dataset"
	"github.com/open-markdown/ccrawl/extract"
	"github.com/open-markdown/ccrawl/fetch"
	"github.com/open-markdown/ccrawl/internal/version"
	"github.com/open-markdown/ccrawl/pipeline"
	"github.com/spf13/cobra"
)

type refetchOptions struct {
	Inputs []string
	sourceOptions
	runOptions
	Extractor    string
	DocTimeout   time.Duration
	DedupDigest  bool
	Lang         string
	MinLangConf  float64
	FetchWorkers int
	PerHost      int
	Rate         float64
	MaxRedirects int
	Timeout      time.Duration
	MaxBody      int64
	Contact      string
	IgnoreRobots bool
	FetchOnly    bool
}

func newRefetchCmd(streams IO) *cobra.Command {
	o := &refetchOptions{}
	cmd := &cobra.Command{
		Use:   "refetch [flags] FILE|DIR...",
		Short: "Fetch every URL of WARC shards live and write today's pages with their responses",
		Long: `Takes the URLs of each shard's response records (local files, or --crawl and
--shards), fetches each live, and writes one row per URL (failures included,
with the error class) in schema open-markdown-refetch-v1 at
<out>/data/crawl=<CRAWL>/<NNNNNN>.parquet. robots.txt is honoured unless
--ignore-robots.`,
		Example: `  ccrawl markdown refetch shard.warc.gz --out today --contact https://example.org/about-my-crawl
  ccrawl markdown refetch --crawl CC-MAIN-2026-30 --shards 0 --rate 1 --dedup-digest
  ccrawl markdown refetch shard.warc.gz --fetch-only --out raw-html`,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Inputs = args
			return runRefetch(cmd.Context(), o, streams)
		},
	}
	addSourceFlags(cmd, &o.sourceOptions)
	addRunFlags(cmd, &o.runOptions)
	f := cmd.Flags()
	f.StringVar(&o.Extractor, "extractor", "trafilatura", "extraction engine: "+strings.Join(extract.Names(), ", "))
	f.DurationVar(&o.DocTimeout, "doc-timeout", 10*time.Second, "time budget per document for extraction")
	f.BoolVar(&o.DedupDigest, "dedup-digest", false, "drop a successful response whose body digest was already seen in this shard (failures are never collapsed)")
	f.StringVar(&o.Lang, "lang", "", "keep only content rows in this language (ISO 639-3); failure rows are always kept")
	f.Float64Var(&o.MinLangConf, "min-lang-confidence", 0.8, "confidence floor for --lang")
	f.IntVar(&o.FetchWorkers, "fetch-workers", 0, "concurrent requests per shard (0 = from the open-file limit, divided across --parallel)")
	f.IntVar(&o.PerHost, "per-host", fetch.DefaultPerHostConcurrency, "requests in flight per host")
	f.Float64Var(&o.Rate, "rate", 0, "requests per second per host (0 = unlimited)")
	f.IntVar(&o.MaxRedirects, "max-redirects", fetch.DefaultMaxRedirects, "redirects followed per URL")
	f.DurationVar(&o.Timeout, "timeout", fetch.DefaultTimeout, "time limit per request")
	f.Int64Var(&o.MaxBody, "max-body-bytes", fetch.DefaultMaxBodyBytes, "longest body accepted; longer is error too_large")
	f.StringVar(&o.Contact, "contact", "", "URL or address naming who runs this crawl, added to the User-Agent")
	f.BoolVar(&o.IgnoreRobots, "ignore-robots", false, "do not honour robots.txt")
	f.BoolVar(&o.FetchOnly, "fetch-only", false, "store the raw HTML in an extra html column; no Markdown, language or simhash")
	return cmd
}

func runRefetch(ctx context.Context, o *refetchOptions, streams IO) error {
	if o.Extractor == "wet" {
		return usagef("--extractor wet: refetch fetches live HTML; WET text only exists in Common Crawl's archives (use: %s)", strings.Join(extract.Names(), ", "))
	}
	if o.SourceKind != "warc" {
		return usagef("--source-kind %s: refetch reads URLs from WARC shards (--source-kind warc)", o.SourceKind)
	}
	if o.FetchOnly && o.Lang != "" {
		return usagef("--fetch-only with --lang: fetch-only never produces the Markdown the language identifier reads; drop one of them")
	}
	if err := validateLang(o.Lang, o.MinLangConf); err != nil {
		return err
	}
	if o.Workers < 1 || o.Parallel < 1 || o.FetchWorkers < 0 || o.PerHost < 1 || o.Rate < 0 || o.Timeout <= 0 || o.MaxBody < 1 {
		return usagef("--workers, --parallel, --per-host, --timeout and --max-body-bytes must be positive; --fetch-workers and --rate >= 0")
	}
	var ex extract.Extractor
	if !o.FetchOnly {
		var err error
		if ex, err = extract.New(o.Extractor); err != nil {
			return usagef("--extractor: %v", err)
		}
		ex = extract.WithTimeout(ex, o.DocTimeout)
	}
	hubClient, err := o.publishOptions.check()
	if err != nil {
		return err
	}
	workers := o.FetchWorkers
	if workers == 0 {
		limit, err := fetch.RaiseFileLimit(1 << 16)
		if err != nil {
			limit = 1024
		}
		workers = fetch.AutoWorkers(limit, o.Parallel)
		fmt.Fprintf(streams.ErrOut, "refetch: %d fetch workers per shard (open-file limit %d, --parallel %d)\n", workers, limit, o.Parallel)
	}
	ua := userAgent()
	if o.Contact != "" {
		ua = strings.TrimSuffix(ua, ")") + "; " + o.Contact + ")"
	}
	fetcher, err := fetch.New(fetch.Options{
		Workers: workers, PerHostConcurrency: o.PerHost, Rate: o.Rate, MaxRedirects: o.MaxRedirects,
		Timeout: o.Timeout, MaxBodyBytes: o.MaxBody, UserAgent: ua, IgnoreRobots: o.IgnoreRobots,
	})
	if err != nil {
		return usagef("%v", err)
	}
	ctx, stop := signalContext(ctx)
	defer stop()
	shards, crawl, err := resolveShards(ctx, &o.sourceOptions, o.Out, o.Inputs)
	if err != nil {
		return err
	}
	cfg := &pipeline.RefetchConfig{
		OutDir: o.Out, Crawl: crawl, Fetcher: fetcher, Extractor: ex, DedupDigest: o.DedupDigest,
		Lang: pipeline.LangFilter{Code: o.Lang, MinConfidence: o.MinLangConf}, FetchOnly: o.FetchOnly, ToolVersion: version.Tool,
	}
	extractorName := "none (--fetch-only)"
	if ex != nil {
		extractorName = ex.Version()
	}
	info := pipeline.CardInfo{Repo: o.Repo, Schema: dataset.SchemaRefetch, Columns: pipeline.RefetchColumns, Extractor: extractorName, ToolVersion: version.Tool, Filters: filtersOf(o.DedupDigest, o.Lang, o.MinLangConf)}
	res, err := executeRun(ctx, "markdown.refetch", &o.runOptions, &o.sourceOptions, hubClient, crawl, info, shards, streams,
		func(pool *pipeline.Pool) pipeline.ShardFunc {
			return func(ctx context.Context, in io.Reader, sh pipeline.Shard) pipeline.ShardResult {
				return pipeline.RefetchShard(ctx, cfg, pool, in, sh)
			}
		})
	if err != nil {
		return err
	}
	runErr := reportRun(streams, "refetch", res, o.DedupDigest, o.Lang)
	st := res.Stats
	fmt.Fprintf(streams.Out, "phase totals: extract=%.0fs fetch=%.0fs convert=%.0fs export=%.0fs\n", st.ExtractSecs, st.FetchSecs, st.ConvertSecs, st.WriteSecs)
	fmt.Fprintln(streams.Out, failureLine(st.FetchFailed))
	return runErr
}

// failureLine renders "failures: N total | dns=.. timeout=.." by count.
func failureLine(m map[string]int64) string {
	var total int64
	type kv struct {
		k string
		v int64
	}
	var all []kv
	for k, v := range m {
		total += v
		all = append(all, kv{k, v})
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].v != all[j].v {
			return all[i].v > all[j].v
		}
		return all[i].k < all[j].k
	})
	s := fmt.Sprintf("failures: %d total", total)
	if len(all) > 0 {
		parts := make([]string, len(all))
		for i, e := range all {
			parts[i] = fmt.Sprintf("%s=%d", e.k, e.v)
		}
		s += " | " + strings.Join(parts, " ")
	}
	return s
}
