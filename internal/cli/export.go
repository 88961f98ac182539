package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/open-markdown/ccrawl/commoncrawl"
	"github.com/open-markdown/ccrawl/dataset"
	"github.com/open-markdown/ccrawl/extract"
	"github.com/open-markdown/ccrawl/hub"
	"github.com/open-markdown/ccrawl/internal/version"
	"github.com/open-markdown/ccrawl/lang"
	"github.com/open-markdown/ccrawl/pipeline"
	"github.com/spf13/cobra"
)

// sourceOptions select shards: local files, or a crawl's manifest.
type sourceOptions struct {
	Crawl       string
	Shards      string
	Limit       int
	BaseURL     string
	IndexURL    string
	SourceKind  string
	CacheDir    string
	NoWARCCache bool
	Retries     int
}

// runOptions are shared by every long-running command (export, refetch).
type runOptions struct {
	Out        string
	Workers    int
	Parallel   int
	MinFreeGB  float64
	Ledger     string
	Journal    string
	Progress   string
	MetricsAdr string
	publishOptions
}

type exportOptions struct {
	Inputs []string
	sourceOptions
	runOptions
	Extractor      string
	MaxRecordBytes int64
	DocTimeout     time.Duration
	DedupDigest    bool
	Lang           string
	MinLangConf    float64
}

func newMarkdownCmd(streams IO) *cobra.Command {
	md := &cobra.Command{
		Use:   "markdown",
		Short: "Build Markdown datasets from WARC shards",
		Example: `  ccrawl markdown export testdata/sample.warc.gz --out out
  ccrawl markdown refetch shard.warc.gz --out today`,
	}
	md.AddCommand(newExportCmd(streams), newRefetchCmd(streams))
	return md
}

func addSourceFlags(cmd *cobra.Command, o *sourceOptions) {
	f := cmd.Flags()
	f.StringVar(&o.Crawl, "crawl", "", "crawl id (CC-MAIN-YYYY-WW) or 'latest'; with --shards reads the crawl's manifest, with files names the output folder")
	f.StringVar(&o.Shards, "shards", "", "manifest positions: N, N-M, N,M, mixes like 0-9,20, or all (needs --crawl)")
	f.IntVar(&o.Limit, "limit", 0, "keep only the first K shards after --shards expansion (0 = all)")
	f.StringVar(&o.BaseURL, "base-url", envOr("CCRAWL_BASE_URL", commoncrawl.DefaultBaseURL), "Common Crawl data server (env CCRAWL_BASE_URL)")
	f.StringVar(&o.IndexURL, "index-url", commoncrawl.DefaultIndexURL, "Common Crawl index server, for --crawl latest")
	f.StringVar(&o.SourceKind, "source-kind", "warc", "manifest to read: warc or wet")
	f.StringVar(&o.CacheDir, "warc-cache-dir", "", "where downloaded shards and manifests are cached (default <out>/.cache)")
	f.BoolVar(&o.NoWARCCache, "no-warc-cache", false, "delete each downloaded shard once it is converted")
	f.IntVar(&o.Retries, "download-retries", 8, "attempts per download before the shard is recorded as failed (403/429/5xx and broken connections are retried with backoff)")
}

func addRunFlags(cmd *cobra.Command, o *runOptions) {
	f := cmd.Flags()
	f.StringVarP(&o.Out, "out", "o", "ccrawl-out", "output folder (files land in <out>/data/crawl=<CRAWL>/<NNNNNN>.parquet)")
	f.IntVar(&o.Workers, "workers", runtime.NumCPU(), "conversion workers shared by all shards in flight")
	f.IntVar(&o.Parallel, "parallel", 1, "shards in flight (download + convert)")
	f.Float64Var(&o.MinFreeGB, "min-free-gb", 2, "pause new downloads while free disk is below this many GB")
	f.StringVar(&o.Ledger, "ledger", "", "ledger of committed shards (default <out>/.committed)")
	f.StringVar(&o.Journal, "journal", "", "JSON-lines journal (default <out>/run.jsonl)")
	f.StringVar(&o.Progress, "progress", "auto", "progress display: text, json, none (auto: text on a terminal, json otherwise)")
	f.StringVar(&o.MetricsAdr, "metrics-addr", "", "serve Prometheus metrics at this address, e.g. :9090")
	addPublishFlags(cmd, &o.publishOptions)
}

func newExportCmd(streams IO) *cobra.Command {
	o := &exportOptions{}
	cmd := &cobra.Command{
		Use:   "export [flags] FILE|DIR...",
		Short: "Extract every HTML page of WARC shards to Markdown Parquet (open-markdown-v3)",
		Long: `Reads WARC shards (local files, or a crawl's manifest on the Common Crawl data
server with --crawl and --shards), extracts each HTTP 200 HTML response to
Markdown, labels it with its language and a simhash, and writes one zstd
Parquet file per shard at <out>/data/crawl=<CRAWL>/<NNNNNN>.parquet.
A ledger (<out>/.committed) makes re-running the same command resume.`,
		Example: `  # a local shard
  ccrawl markdown export testdata/sample.warc.gz --out out
  # exact duplicates dropped before extraction, Vietnamese only
  ccrawl markdown export shard.warc.gz --dedup-digest --lang vie
  # shards 0-9 and 20 of a crawl, two at a time, resumable
  ccrawl markdown export --crawl CC-MAIN-2026-30 --shards 0-9,20 --parallel 2 --out corpus`,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Inputs = args
			return runExport(cmd.Context(), o, streams)
		},
	}
	addSourceFlags(cmd, &o.sourceOptions)
	addRunFlags(cmd, &o.runOptions)
	f := cmd.Flags()
	f.StringVar(&o.Extractor, "extractor", "trafilatura", "extraction engine: "+strings.Join(append(extract.Names(), "wet"), ", "))
	f.Int64Var(&o.MaxRecordBytes, "max-record-bytes", 16<<20, "longest body kept for extraction; longer ones are cut and counted")
	f.DurationVar(&o.DocTimeout, "doc-timeout", 10*time.Second, "time budget per document; slower pages are skipped as 'timeout'")
	f.BoolVar(&o.DedupDigest, "dedup-digest", false, "skip records whose payload digest was already seen in this shard (before extraction)")
	f.StringVar(&o.Lang, "lang", "", "keep only rows in this language (ISO 639-3, e.g. vie)")
	f.Float64Var(&o.MinLangConf, "min-lang-confidence", 0.8, "confidence floor for --lang")
	return cmd
}

// validateLang checks --lang before any work; an unknown code lists the
// supported ones.
func validateLang(code string, floor float64) error {
	if floor < 0 || floor > 1 {
		return usagef("--min-lang-confidence %v: must be between 0 and 1", floor)
	}
	if code == "" {
		return nil
	}
	if !lang.IsSupported(code) {
		return usagef("--lang %q: unknown language code; supported ISO 639-3 codes: %s", code, strings.Join(lang.Supported(), " "))
	}
	return nil
}

func runExport(ctx context.Context, o *exportOptions, streams IO) error {
	// Everything that can be a usage error is checked before any work.
	if err := validateLang(o.Lang, o.MinLangConf); err != nil {
		return err
	}
	if o.Workers < 1 || o.Parallel < 1 {
		return usagef("--workers and --parallel must be at least 1")
	}
	if o.MaxRecordBytes < 1024 {
		return usagef("--max-record-bytes %d: must be at least 1024", o.MaxRecordBytes)
	}
	if o.DocTimeout <= 0 {
		return usagef("--doc-timeout must be positive")
	}
	wet := o.Extractor == "wet"
	switch {
	case o.SourceKind != "warc" && o.SourceKind != "wet":
		return usagef("--source-kind %q: must be warc or wet", o.SourceKind)
	case wet && o.SourceKind != "wet":
		return usagef("--extractor wet passes Common Crawl's extracted text through and needs --source-kind wet (WET shards); WARC shards need an HTML engine: %s", strings.Join(extract.Names(), ", "))
	case !wet && o.SourceKind == "wet":
		return usagef("--source-kind wet holds plain text, not HTML: use --extractor wet, or --source-kind warc with --extractor %s", o.Extractor)
	}
	var ex extract.Extractor
	if !wet {
		var err error
		ex, err = extract.New(o.Extractor)
		if err != nil {
			return usagef("--extractor: %v", err)
		}
		ex = extract.WithTimeout(ex, o.DocTimeout)
	}
	hubClient, err := o.publishOptions.check()
	if err != nil {
		return err
	}
	ctx, stop := signalContext(ctx)
	defer stop()

	shards, crawl, err := resolveShards(ctx, &o.sourceOptions, o.Out, o.Inputs)
	if err != nil {
		return err
	}
	cfg := &pipeline.ExportConfig{
		OutDir:         o.Out,
		Crawl:          crawl,
		Extractor:      ex,
		MaxRecordBytes: o.MaxRecordBytes,
		DedupDigest:    o.DedupDigest,
		Lang:           pipeline.LangFilter{Code: o.Lang, MinConfidence: o.MinLangConf},
		ToolVersion:    version.Tool,
		WET:            wet,
	}
	extractorName := o.Extractor
	if ex != nil {
		extractorName = ex.Version()
	}
	info := pipeline.CardInfo{Repo: o.Repo, Schema: dataset.SchemaExport, Columns: pipeline.ExportColumns, Extractor: extractorName, ToolVersion: version.Tool, Filters: filtersOf(o.DedupDigest, o.Lang, o.MinLangConf)}
	res, err := executeRun(ctx, "markdown.export", &o.runOptions, &o.sourceOptions, hubClient, crawl, info, shards, streams,
		func(pool *pipeline.Pool) pipeline.ShardFunc {
			return func(ctx context.Context, in io.Reader, sh pipeline.Shard) pipeline.ShardResult {
				return pipeline.ExportShard(ctx, cfg, pool, o.Workers, in, sh)
			}
		})
	if err != nil {
		return err
	}
	return reportRun(streams, "markdown", res, o.DedupDigest, o.Lang)
}

// executeRun is what export and refetch share once their options are
// checked: the conversion pool, the run's ledger, journal, progress and
// metrics, the publisher, the run itself and the local dataset card.
func executeRun(ctx context.Context, name string, o *runOptions, src *sourceOptions, hubClient *hub.Client, crawl string, info pipeline.CardInfo,
	shards []pipeline.Shard, streams IO, convert func(*pipeline.Pool) pipeline.ShardFunc) (pipeline.RunResult, error) {
	pool := pipeline.NewPool(o.Workers)
	defer pool.Close()
	rc, cleanup, err := o.runConfig(ctx, name, crawl, src, streams)
	if err != nil {
		return pipeline.RunResult{}, err
	}
	defer cleanup()
	if rc.Publisher, err = o.publishOptions.publisher(ctx, hubClient, rc.LedgerPath, crawl, info, streams); err != nil {
		return pipeline.RunResult{}, err
	}
	rc.Convert = convert(pool)
	res, err := pipeline.Run(ctx, rc, shards)
	if err != nil {
		return res, err
	}
	if !o.pushing() {
		if err := writeLocalCard(o.Out, rc.LedgerPath, info); err != nil {
			fmt.Fprintf(streams.ErrOut, "%s: dataset card: %v\n", name, err)
		}
	}
	return res, nil
}

// reportRun prints the summary block and turns failures into the exit code.
func reportRun(streams IO, prefix string, res pipeline.RunResult, dedup bool, langCode string) error {
	for _, f := range res.Failures {
		fmt.Fprintf(streams.ErrOut, "%s: shard %06d failed: %v\n", prefix, f.Shard.Number, f.Err)
	}
	fmt.Fprintln(streams.Out, summaryLine(prefix, res))
	fmt.Fprintln(streams.Out, res.Stats.SkipLine())
	if dedup {
		fmt.Fprintf(streams.Out, "dedup: digest_dropped=%d of %d candidate records (%.1f%%)\n",
			res.Stats.DigestDropped, res.Stats.Candidates, pct(res.Stats.DigestDropped, res.Stats.Candidates))
	}
	if langCode != "" {
		kept := res.Stats.Documents - res.Stats.LangDropped
		fmt.Fprintf(streams.Out, "language: --lang %s kept %d of %d documents, dropped %d (%.1f%%)\n",
			langCode, kept, res.Stats.Documents, res.Stats.LangDropped, pct(res.Stats.LangDropped, res.Stats.Documents))
	}
	if len(res.Stats.LangCounts) > 0 {
		fmt.Fprintf(streams.Out, "language: detected %s\n", pipeline.TopLanguages(res.Stats.LangCounts, 8))
	}
	if res.Interrupted {
		return fmt.Errorf("interrupted after %d committed shards; run the same command again to resume", res.Committed)
	}
	if res.Failed > 0 {
		return fmt.Errorf("%d of %d shards failed (see above and the journal); run the same command again to retry them", res.Failed, res.Total)
	}
	return nil
}

// resolveShards turns arguments or --crawl/--shards into the shard list and
// the crawl id the output folder is named after ("" = detect per shard).
func resolveShards(ctx context.Context, o *sourceOptions, out string, inputs []string) ([]pipeline.Shard, string, error) {
	if len(inputs) > 0 {
		if o.Shards != "" {
			return nil, "", usagef("give either files/directories or --shards, not both")
		}
		if o.Crawl == "latest" {
			return nil, "", usagef("--crawl latest needs --shards (it reads the manifest)")
		}
		shards, err := localShards(inputs)
		return shards, o.Crawl, err
	}
	if o.Shards == "" {
		return nil, "", usagef("nothing to do: give WARC files or directories, or --crawl ID --shards SPEC")
	}
	if o.Crawl == "" {
		return nil, "", usagef("--shards needs --crawl ID|latest")
	}
	client := o.client(out)
	crawl := o.Crawl
	if crawl == "latest" {
		c, err := client.LatestCrawl(ctx)
		if err != nil {
			return nil, "", fmt.Errorf("--crawl latest: %w", err)
		}
		crawl = c
	}
	paths, err := client.Manifest(ctx, crawl, o.SourceKind)
	if err != nil {
		return nil, "", fmt.Errorf("manifest of %s: %w", crawl, err)
	}
	idx, err := commoncrawl.ParseShardSpec(o.Shards, len(paths))
	if err != nil {
		return nil, "", usagef("--shards: %v", err)
	}
	if o.Limit < 0 {
		return nil, "", usagef("--limit must be >= 0")
	}
	if o.Limit > 0 {
		idx = commoncrawl.Limit(idx, o.Limit)
	}
	shards := make([]pipeline.Shard, 0, len(idx))
	for _, i := range idx {
		shards = append(shards, pipeline.Shard{Number: i, Name: paths[i], Crawl: crawl, Remote: paths[i]})
	}
	return shards, crawl, nil
}

func (o *sourceOptions) cacheDir(out string) string {
	if o.CacheDir != "" {
		return o.CacheDir
	}
	return filepath.Join(out, ".cache")
}

func (o *sourceOptions) client(out string) *commoncrawl.Client {
	return &commoncrawl.Client{
		BaseURL:   o.BaseURL,
		IndexURL:  o.IndexURL,
		CacheDir:  filepath.Join(o.cacheDir(out), "manifests"),
		UserAgent: userAgent(),
		Retry:     commoncrawl.Retry{Attempts: o.Retries},
	}
}

// localShards expands files and directories. A Common Crawl file name keeps
// its own number; other files are numbered by sorted position.
func localShards(inputs []string) ([]pipeline.Shard, error) {
	var files []string
	for _, in := range inputs {
		st, err := os.Stat(in)
		if err != nil {
			return nil, usagef("%s: no such file or directory", in)
		}
		if !st.IsDir() {
			files = append(files, in)
			continue
		}
		entries, err := os.ReadDir(in)
		if err != nil {
			return nil, err
		}
		n := 0
		for _, e := range entries {
			name := e.Name()
			if !e.IsDir() && (strings.HasSuffix(name, ".warc.gz") || strings.HasSuffix(name, ".warc") || strings.HasSuffix(name, ".wet.gz")) {
				files = append(files, filepath.Join(in, name))
				n++
			}
		}
		if n == 0 {
			return nil, fmt.Errorf("%s: no .warc.gz, .warc or .wet.gz files in this directory", in)
		}
	}
	sort.Strings(files)
	shards := make([]pipeline.Shard, 0, len(files))
	used := map[int]string{}
	for i, f := range files {
		num, ok := commoncrawl.ShardNumberFromName(filepath.Base(f))
		if !ok {
			num = i
		}
		if prev, dup := used[num]; dup {
			return nil, usagef("%s and %s would both be shard %06d; pass them in separate runs or with --out folders", prev, f, num)
		}
		used[num] = f
		abs, _ := filepath.Abs(f)
		shards = append(shards, pipeline.Shard{Number: num, Name: f, Local: abs, Crawl: commoncrawl.CrawlFromName(abs)})
	}
	return shards, nil
}

func userAgent() string {
	return "ccrawl/" + version.Tool + " (+https://github.com/open-markdown/ccrawl)"
}

func envOr(key, def string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return def
}

// signalContext cancels on SIGINT/SIGTERM: the run stops taking shards,
// abandons in-flight ones cleanly and tells the user how to resume.
func signalContext(parent context.Context) (context.Context, context.CancelFunc) {
	if parent == nil {
		parent = context.Background()
	}
	return signal.NotifyContext(parent, os.Interrupt, syscall.SIGTERM)
}
