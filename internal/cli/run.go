package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/open-markdown/ccrawl/metrics"
	"github.com/open-markdown/ccrawl/pipeline"
	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// runConfig turns the shared run flags into a pipeline.RunConfig, starting
// the metrics server and progress display. cleanup stops them.
func (o *runOptions) runConfig(ctx context.Context, name, crawl string, src *sourceOptions, streams IO) (pipeline.RunConfig, func(), error) {
	switch o.Progress {
	case "auto", "text", "json", "none":
	default:
		return pipeline.RunConfig{}, nil, usagef("--progress %q: must be text, json or none", o.Progress)
	}
	if o.MinFreeGB < 0 {
		return pipeline.RunConfig{}, nil, usagef("--min-free-gb must be >= 0")
	}
	rc := pipeline.RunConfig{
		Pipeline:     name,
		Crawl:        crawl,
		OutDir:       o.Out,
		Parallel:     o.Parallel,
		LedgerPath:   or(o.Ledger, filepath.Join(o.Out, ".committed")),
		JournalPath:  or(o.Journal, filepath.Join(o.Out, "run.jsonl")),
		CacheDir:     filepath.Join(src.cacheDir(o.Out), "warc"),
		KeepCache:    !src.NoWARCCache,
		MinFreeBytes: uint64(o.MinFreeGB * 1e9),
		Log:          streams.ErrOut,
	}
	if src.Shards != "" {
		rc.Downloader = src.client(o.Out)
	}
	var cleanups []func()
	cleanup := func() {
		for i := len(cleanups) - 1; i >= 0; i-- {
			cleanups[i]()
		}
	}
	if o.MetricsAdr != "" {
		m := metrics.New(name)
		addr, err := m.Listen(o.MetricsAdr)
		if err != nil {
			return rc, nil, fmt.Errorf("--metrics-addr %s: %w", o.MetricsAdr, err)
		}
		fmt.Fprintf(streams.ErrOut, "%s: metrics at http://%s/metrics\n", name, addr)
		rc.Observers = append(rc.Observers, m)
		cleanups = append(cleanups, m.Close)
	}
	mode := o.Progress
	if mode == "auto" {
		mode = "json"
		if f, ok := streams.ErrOut.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
			mode = "text"
		}
	}
	switch mode {
	case "text":
		p := newTextProgress(streams.ErrOut)
		rc.Observers = append(rc.Observers, p)
		cleanups = append(cleanups, p.finish)
	case "json":
		rc.Observers = append(rc.Observers, &jsonProgress{w: streams.ErrOut, every: 5 * time.Second})
	}
	return rc, cleanup, nil
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// textProgress is the live display on a terminal.
type textProgress struct {
	mu  sync.Mutex
	bar *progressbar.ProgressBar
}

func newTextProgress(w io.Writer) *textProgress {
	bar := progressbar.NewOptions(-1,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription("shards"),
		progressbar.OptionShowCount(),
		progressbar.OptionSetElapsedTime(true),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionThrottle(200*time.Millisecond),
		progressbar.OptionClearOnFinish(),
	)
	return &textProgress{bar: bar}
}

func (p *textProgress) ShardDone(pipeline.ShardResult) {}

func (p *textProgress) Snapshot(s pipeline.Snapshot) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar.GetMax() != s.Total {
		p.bar.ChangeMax(s.Total)
	}
	mbps := 0.0
	if s.Elapsed > 0 {
		mbps = float64(s.WARCBytes) / 1e6 / s.Elapsed.Seconds()
	}
	eta := "?"
	if s.ETASecs > 0 {
		eta = (time.Duration(s.ETASecs) * time.Second).String()
	}
	p.bar.Describe(fmt.Sprintf("shards (%d failed, %d in flight) | %d rows | %.1f MB/s | ETA %s", s.Failed, s.Inflight, s.Rows, mbps, eta))
	p.bar.Set(s.Done)
}

func (p *textProgress) finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.bar.Finish()
}

// jsonProgress writes a JSON line to stderr on each shard and at most every
// `every` otherwise: machine-readable progress when stderr is not a terminal.
type jsonProgress struct {
	mu    sync.Mutex
	w     io.Writer
	every time.Duration
	last  time.Time
	force bool
}

func (p *jsonProgress) ShardDone(pipeline.ShardResult) {
	p.mu.Lock()
	p.force = true
	p.mu.Unlock()
}

func (p *jsonProgress) Snapshot(s pipeline.Snapshot) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.force && time.Since(p.last) < p.every {
		return
	}
	p.force = false
	p.last = time.Now()
	b, _ := json.Marshal(map[string]any{
		"progress": "shards", "done": s.Done, "total": s.Total, "failed": s.Failed, "inflight": s.Inflight,
		"rows": s.Rows, "warc_bytes": s.WARCBytes, "elapsed_s": s.Elapsed.Seconds(), "eta_s": s.ETASecs,
	})
	fmt.Fprintln(p.w, string(b))
}
