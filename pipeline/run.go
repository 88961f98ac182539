package pipeline

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/open-markdown/ccrawl/dataset"
)

// Downloader fetches a remote shard to a local file (package commoncrawl).
type Downloader interface {
	Download(ctx context.Context, path, dest string, progress func(n int64)) (int64, error)
}

// Publisher receives durable shard files and acknowledges them once they
// are safely elsewhere (package hub). The run writes a shard's ledger entry
// only in done(nil).
type Publisher interface {
	Enqueue(ctx context.Context, r ShardResult, done func(error)) error
	Close(ctx context.Context) error
}

// Observer sees the run as it goes: progress displays and metrics.
type Observer interface {
	ShardDone(r ShardResult)
	Snapshot(s Snapshot)
}

// Snapshot is the run's state at a moment.
type Snapshot struct {
	Done, Total, Committed, Skipped, Failed, Inflight int
	Rows, HTMLBytes, WARCBytes                        int64
	Elapsed                                           time.Duration
	RatePerHour, ETASecs                              float64
	FreeDisk, RSS                                     uint64
}

// ShardFunc converts one opened shard. Export and refetch differ only here.
type ShardFunc func(ctx context.Context, in io.Reader, sh Shard) ShardResult

// RunConfig is a whole run: many shards, one pool, one ledger, one journal.
type RunConfig struct {
	Pipeline     string // "markdown.export" | "markdown.refetch"
	Crawl        string
	OutDir       string
	Parallel     int
	LedgerPath   string
	JournalPath  string
	Downloader   Downloader
	CacheDir     string
	KeepCache    bool   // false: delete a downloaded shard after it is converted
	MinFreeBytes uint64 // pause new downloads below this much free disk
	Publisher    Publisher
	Observers    []Observer
	Log          io.Writer     // human lines (ledger notice, warnings)
	TickEvery    time.Duration // journal tick period (30 s)
	Convert      ShardFunc
}

// RunResult is what the summary line reports.
type RunResult struct {
	Total, Committed, Skipped, Failed int
	AlreadyCommitted                  int // skipped because the ledger had them
	Stats                             ShardStats
	Elapsed                           time.Duration
	Failures                          []ShardResult
	Interrupted                       bool
	RunID                             string
}

// Run processes shards with at most Parallel in flight. One broken shard
// never stops the run; a cancelled ctx stops taking new shards, abandons
// in-flight ones cleanly and returns with Interrupted set.
func Run(ctx context.Context, cfg RunConfig, shards []Shard) (RunResult, error) {
	start := time.Now()
	res := RunResult{Total: len(shards), RunID: newRunID()}
	if cfg.Parallel < 1 {
		cfg.Parallel = 1
	}
	if cfg.Log == nil {
		cfg.Log = io.Discard
	}
	if cfg.TickEvery == 0 {
		cfg.TickEvery = 30 * time.Second
	}
	ledger, err := OpenLedger(cfg.LedgerPath)
	if err != nil {
		return res, fmt.Errorf("ledger %s: %w", cfg.LedgerPath, err)
	}
	if n := ledger.Len(); n > 0 {
		fmt.Fprintf(cfg.Log, "markdown: ledger %s already records %d committed shards\n", cfg.LedgerPath, n)
	}
	if n, _ := dataset.RemoveStaleTemps(cfg.OutDir); n > 0 {
		fmt.Fprintf(cfg.Log, "markdown: removed %d temporary files left by an interrupted run\n", n)
	}
	journal, err := OpenJournal(cfg.JournalPath)
	if err != nil {
		return res, fmt.Errorf("journal %s: %w", cfg.JournalPath, err)
	}
	defer journal.Close()

	var mu sync.Mutex // guards res, inflight
	inflight := 0
	base := func(ev string) Event {
		return Event{Event: ev, Run: res.RunID, Pipeline: cfg.Pipeline, Crawl: cfg.Crawl}
	}
	snapshot := func() Snapshot {
		el := time.Since(start)
		s := Snapshot{
			Done: res.Committed + res.Skipped + res.Failed, Total: res.Total,
			Committed: res.Committed, Skipped: res.Skipped, Failed: res.Failed, Inflight: inflight,
			Rows: res.Stats.Rows, HTMLBytes: res.Stats.HTMLBytes, WARCBytes: res.Stats.WARCBytes,
			Elapsed: el, FreeDisk: FreeDisk(cfg.OutDir), RSS: RSS(),
		}
		worked := res.Committed + res.Failed
		if worked > 0 && el > 0 {
			s.RatePerHour = float64(worked) / el.Hours()
			left := res.Total - s.Done
			s.ETASecs = float64(left) / s.RatePerHour * 3600
		}
		return s
	}
	fill := func(e *Event, s Snapshot) {
		e.Done, e.Total, e.Committed, e.Skipped, e.Failed, e.Inflight = s.Done, s.Total, s.Committed, s.Skipped, s.Failed, s.Inflight
		e.RatePerHour, e.ETASecs, e.ElapsedSecs = s.RatePerHour, s.ETASecs, s.Elapsed.Seconds()
		e.FreeDisk, e.RSS = s.FreeDisk, s.RSS
	}
	notify := func() {
		mu.Lock()
		s := snapshot()
		mu.Unlock()
		for _, o := range cfg.Observers {
			o.Snapshot(s)
		}
	}

	startEv := base("start")
	mu.Lock()
	fill(&startEv, snapshot())
	mu.Unlock()
	journal.Write(startEv)

	var pending []Shard
	for _, sh := range shards {
		if ledger.Has(sh.Key()) {
			res.Skipped++
			res.AlreadyCommitted++
			n := sh.Number
			ev := base("shard")
			ev.Shard, ev.Source, ev.Status = &n, sh.Name, StatusSkipped
			journal.Write(ev)
			for _, o := range cfg.Observers {
				o.ShardDone(ShardResult{Shard: sh, Status: StatusSkipped})
			}
			continue
		}
		pending = append(pending, sh)
	}
	notify()

	// finish records a shard's final outcome (after publishing, if any).
	finish := func(r ShardResult) {
		mu.Lock()
		switch r.Status {
		case StatusOK:
			res.Committed++
			res.Stats.Add(r.Stats)
		case StatusAbandoned:
			// not counted: it will run again on resume
		default:
			res.Failed++
			res.Stats.Add(r.Stats)
			res.Failures = append(res.Failures, r)
		}
		ev := base("shard")
		n := r.Shard.Number
		ev.Shard, ev.Source, ev.Status, ev.Path, ev.Crawl = &n, r.Shard.Name, r.Status, r.Path, r.Crawl
		if r.Err != nil {
			ev.Error = r.Err.Error()
		}
		st := r.Stats
		ev.ShardStats = &st
		fill(&ev, snapshot())
		mu.Unlock()
		journal.Write(ev)
		for _, o := range cfg.Observers {
			o.ShardDone(r)
		}
		notify()
	}
	commit := func(r ShardResult) {
		err := ledger.Append(LedgerEntry{Key: r.Shard.Key(), Shard: r.Shard.Number, Crawl: r.Crawl, Path: relPath(cfg.OutDir, r.Path), Rows: r.Stats.Rows, Bytes: r.Stats.ParquetBytes, Pushed: cfg.Publisher != nil, DigestDropped: r.Stats.DigestDropped, RowLangs: r.Stats.RowLangs})
		if err != nil {
			r.Status, r.Err = StatusFailed, err
		}
		finish(r)
	}

	tickCtx, stopTick := context.WithCancel(context.Background())
	go func() {
		t := time.NewTicker(cfg.TickEvery)
		defer t.Stop()
		for {
			select {
			case <-tickCtx.Done():
				return
			case <-t.C:
				ev := base("tick")
				mu.Lock()
				fill(&ev, snapshot())
				mu.Unlock()
				journal.Write(ev)
				notify()
			}
		}
	}()

	var pubWG sync.WaitGroup
	sem := make(chan struct{}, cfg.Parallel)
	var wg sync.WaitGroup
	for _, sh := range pending {
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		mu.Lock()
		inflight++
		mu.Unlock()
		wg.Add(1)
		go func(sh Shard) {
			defer wg.Done()
			r := processShard(ctx, &cfg, sh)
			mu.Lock()
			inflight--
			mu.Unlock()
			<-sem
			if r.Status == StatusOK && cfg.Publisher != nil {
				pubWG.Add(1)
				err := cfg.Publisher.Enqueue(ctx, r, func(err error) {
					defer pubWG.Done()
					if err != nil {
						r.Status, r.Err = StatusFailed, fmt.Errorf("publish: %w", err)
						finish(r)
						return
					}
					commit(r)
				})
				if err != nil {
					pubWG.Done()
					r.Status, r.Err = StatusFailed, fmt.Errorf("publish: %w", err)
					finish(r)
				}
				return
			}
			if r.Status == StatusOK {
				commit(r)
				return
			}
			finish(r)
		}(sh)
	}
	wg.Wait()
	if cfg.Publisher != nil {
		// Flush the last batch even when interrupted: the files are durable
		// and committing them saves work on resume.
		flushCtx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
		if err := cfg.Publisher.Close(flushCtx); err != nil {
			fmt.Fprintf(cfg.Log, "markdown: publish: %v\n", err)
		}
		cancel()
		pubWG.Wait()
	}
	stopTick()
	res.Elapsed = time.Since(start)
	res.Interrupted = ctx.Err() != nil
	endEv := base("end")
	mu.Lock()
	fill(&endEv, snapshot())
	st := res.Stats
	mu.Unlock()
	endEv.ShardStats = &st
	if res.Interrupted {
		endEv.Error = "interrupted"
	}
	journal.Write(endEv)
	return res, nil
}

// processShard opens (downloading if needed) and converts one shard.
func processShard(ctx context.Context, cfg *RunConfig, sh Shard) ShardResult {
	path := sh.Local
	var dl time.Duration
	if path == "" {
		if cfg.Downloader == nil {
			return ShardResult{Shard: sh, Status: StatusFailed, Err: fmt.Errorf("%s: no downloader configured", sh.Name)}
		}
		waitForDisk(ctx, cfg)
		dest := filepath.Join(cfg.CacheDir, filepath.FromSlash(sh.Remote))
		t := time.Now()
		if _, err := os.Stat(dest); err != nil {
			if _, err := cfg.Downloader.Download(ctx, sh.Remote, dest, nil); err != nil {
				if ctx.Err() != nil {
					return ShardResult{Shard: sh, Status: StatusAbandoned, Err: ctx.Err()}
				}
				return ShardResult{Shard: sh, Status: StatusFailed, Err: fmt.Errorf("download %s: %w", sh.Remote, err)}
			}
		}
		dl = time.Since(t)
		path = dest
		if !cfg.KeepCache {
			defer os.Remove(dest)
		}
	}
	f, err := os.Open(path)
	if err != nil {
		return ShardResult{Shard: sh, Status: StatusFailed, Err: err}
	}
	defer f.Close()
	r := cfg.Convert(ctx, f, sh)
	r.Stats.DownloadSecs = dl.Seconds()
	if errors.Is(r.Err, context.Canceled) {
		r.Status = StatusAbandoned
	}
	return r
}

// waitForDisk pauses a new download while free space is below the floor,
// instead of failing half-way through a shard.
func waitForDisk(ctx context.Context, cfg *RunConfig) {
	if cfg.MinFreeBytes == 0 {
		return
	}
	warned := false
	for {
		free := FreeDisk(cfg.CacheDir)
		if free == 0 || free >= cfg.MinFreeBytes {
			return
		}
		if !warned {
			fmt.Fprintf(cfg.Log, "markdown: %.1f GB free under %s, below --min-free-gb; waiting before the next download\n", float64(free)/1e9, cfg.CacheDir)
			warned = true
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(10 * time.Second):
		}
	}
}

func relPath(root, p string) string {
	if p == "" {
		return ""
	}
	if r, err := filepath.Rel(root, p); err == nil {
		return filepath.ToSlash(r)
	}
	return p
}

func newRunID() string {
	var b [6]byte
	rand.Read(b[:])
	return time.Now().UTC().Format("20060102T150405Z") + "-" + hex.EncodeToString(b[:])
}
