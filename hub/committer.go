package hub

import (
	"context"
	"errors"
	"fmt"
	"path"
	"strings"
	"sync"
	"time"

	"github.com/open-markdown/ccrawl/internal/backoff"
)

// The Hub allows 128 commits per hour per repo; past that it answers 429
// for a long time, so the committer waits instead of burning retries.
const (
	DefaultCommitsPerHour = 128
	commitWindow          = time.Hour
)

// Item is one finished shard waiting to be published.
type Item struct {
	LocalPath string // the finished Parquet file
	RepoPath  string // e.g. data/crawl=CC-MAIN-2026-30/000123.parquet
	Shard     string // label in the commit summary; "" means RepoPath's base name
	Info      any    // opaque to hub, handed back in the Ack (e.g. ledger entry)
}

// Ack reports an item whose commit the Hub acknowledged; only then may
// the caller record it as published and delete the local file.
type Ack struct {
	Item
	Commit CommitInfo
}

// CommitterConfig tunes a Committer. Zero values are usable defaults.
type CommitterConfig struct {
	BatchSize         int    // items per commit; 0 means 1
	Crawl             string // named in commit summaries, e.g. CC-MAIN-2026-30
	MaxCommitsPerHour int    // 0 means DefaultCommitsPerHour
	// Card, if set, is called at commit time with the batch about to be
	// committed (so the card can count it) and returns the README.md that
	// goes into the same commit; nil bytes mean no card this time.
	// It runs on the committer's goroutine.
	Card func(batch []Item) []byte
	// OnAck is called once per item, in Add order, on the committer's
	// goroutine, after the commit containing it is acknowledged.
	OnAck func(Ack)
	// Now and Sleep drive the rate limit; nil means real time.
	Now   func() time.Time
	Sleep func(ctx context.Context, d time.Duration) error
}

// Committer commits finished shards in the background so the Hub round
// trip stays off the conversion path. Add queues; Close flushes.
type Committer struct {
	client *Client
	repo   string
	cfg    CommitterConfig
	queue  chan Item
	done   chan struct{}
	cancel context.CancelFunc

	// sendMu orders Add's send against Close's close(queue); it is never
	// taken by the committer goroutine, which keeps draining the queue.
	sendMu sync.RWMutex
	closed bool

	mu      sync.Mutex
	err     error
	commits []time.Time // commit times inside the sliding window
	stats   CommitterStats
}

// CommitterStats counts what the committer did.
type CommitterStats struct {
	Commits  int   // commits made
	Items    int   // items acknowledged
	LFSBytes int64 // bytes sent to LFS storage
	Waited   time.Duration
}

// NewCommitter starts a committer for repo. ctx bounds its background
// work; Close must be called to flush and stop it.
func NewCommitter(ctx context.Context, client *Client, repo string, cfg CommitterConfig) *Committer {
	if cfg.BatchSize <= 0 {
		cfg.BatchSize = 1
	}
	if cfg.MaxCommitsPerHour <= 0 {
		cfg.MaxCommitsPerHour = DefaultCommitsPerHour
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Sleep == nil {
		cfg.Sleep = backoff.Sleep
	}
	bg, cancel := context.WithCancel(ctx)
	c := &Committer{
		client: client, repo: repo, cfg: cfg, cancel: cancel,
		// A small queue absorbs one batch in flight; beyond that Add blocks,
		// so a stalled Hub cannot pile up unbounded local shards.
		queue: make(chan Item, cfg.BatchSize),
		done:  make(chan struct{}),
	}
	go c.run(bg)
	return c
}

// ErrCommitterClosed is returned by Add after Close.
var ErrCommitterClosed = errors.New("hub: committer is closed")

// Add queues an item. It blocks only while the queue is full and returns
// the first commit error, after which nothing more is published: the
// unacknowledged shards stay on disk for a resumed run.
func (c *Committer) Add(ctx context.Context, it Item) error {
	c.sendMu.RLock()
	defer c.sendMu.RUnlock()
	if c.closed {
		return ErrCommitterClosed
	}
	c.mu.Lock()
	err := c.err
	c.mu.Unlock()
	if err != nil {
		return err
	}
	select {
	case c.queue <- it:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("hub: queueing %s: %w", it.RepoPath, ctx.Err())
	}
}

// Close commits the last partial batch and waits for the committer to
// stop. If ctx ends first, in-flight work is cancelled.
func (c *Committer) Close(ctx context.Context) error {
	c.sendMu.Lock()
	if !c.closed {
		c.closed = true
		close(c.queue)
	}
	c.sendMu.Unlock()
	select {
	case <-c.done:
	case <-ctx.Done():
		c.cancel()
		<-c.done
		return fmt.Errorf("hub: closing committer: %w", ctx.Err())
	}
	c.cancel()
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// Stats returns counters so far; safe to call at any time.
func (c *Committer) Stats() CommitterStats {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stats
}

func (c *Committer) run(ctx context.Context) {
	defer close(c.done)
	var batch []Item
	// Drain the queue to the end even after an error, so Add never blocks
	// on a committer that has stopped publishing.
	for it := range c.queue {
		batch = append(batch, it)
		if len(batch) >= c.cfg.BatchSize {
			c.flush(ctx, batch)
			batch = nil
		}
	}
	if len(batch) > 0 {
		c.flush(ctx, batch)
	}
}

func (c *Committer) failed() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err != nil
}

func (c *Committer) fail(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err == nil {
		c.err = err
	}
}

func (c *Committer) flush(ctx context.Context, batch []Item) {
	if c.failed() {
		return
	}
	if err := ctx.Err(); err != nil {
		c.fail(fmt.Errorf("hub: commit %s: %w", c.repo, err))
		return
	}
	ops := make([]Operation, 0, len(batch)+1)
	for _, it := range batch {
		ops = append(ops, Operation{RepoPath: it.RepoPath, LocalPath: it.LocalPath})
	}
	if c.cfg.Card != nil {
		if card := c.cfg.Card(batch); card != nil {
			ops = append(ops, Operation{RepoPath: "README.md", Content: card})
		}
	}
	if err := c.waitForSlot(ctx); err != nil {
		c.fail(err)
		return
	}
	info, err := c.client.Commit(ctx, c.repo, Summary(batch, c.cfg.Crawl), description(batch), ops)
	if err != nil {
		c.fail(err)
		return
	}
	c.mu.Lock()
	if info.OID != "" || len(info.Uploaded) > 0 {
		c.commits = append(c.commits, c.cfg.Now())
		c.stats.Commits++
	}
	c.stats.Items += len(batch)
	c.stats.LFSBytes += info.LFSBytes
	c.mu.Unlock()
	if c.cfg.OnAck != nil {
		for _, it := range batch {
			c.cfg.OnAck(Ack{Item: it, Commit: info})
		}
	}
}

// waitForSlot blocks until a commit fits in the sliding one-hour window.
func (c *Committer) waitForSlot(ctx context.Context) error {
	for {
		now := c.cfg.Now()
		c.mu.Lock()
		cut := now.Add(-commitWindow)
		i := 0
		for i < len(c.commits) && !c.commits[i].After(cut) {
			i++
		}
		c.commits = c.commits[i:]
		var wait time.Duration
		if len(c.commits) >= c.cfg.MaxCommitsPerHour {
			wait = c.commits[len(c.commits)-c.cfg.MaxCommitsPerHour].Add(commitWindow).Sub(now)
		}
		if wait > 0 {
			c.stats.Waited += wait
		}
		c.mu.Unlock()
		if wait <= 0 {
			return nil
		}
		if err := c.cfg.Sleep(ctx, wait); err != nil {
			return fmt.Errorf("hub: waiting for the Hub's %d commits/hour limit: %w", c.cfg.MaxCommitsPerHour, err)
		}
	}
}

// Summary is the commit title for a batch, naming its shards, e.g.
// "Add shards 000000, 000001 of CC-MAIN-2026-30". Long batches are
// abbreviated to first…last; the description lists every file.
func Summary(batch []Item, crawl string) string {
	labels := make([]string, len(batch))
	for i, it := range batch {
		labels[i] = shardLabel(it)
	}
	var s string
	switch {
	case len(labels) == 1:
		s = "Add shard " + labels[0]
	case len(labels) <= 8:
		s = "Add shards " + strings.Join(labels, ", ")
	default:
		s = fmt.Sprintf("Add %d shards %s … %s", len(labels), labels[0], labels[len(labels)-1])
	}
	if crawl != "" {
		s += " of " + crawl
	}
	return s
}

func shardLabel(it Item) string {
	if it.Shard != "" {
		return it.Shard
	}
	base := path.Base(it.RepoPath)
	return strings.TrimSuffix(base, path.Ext(base))
}

func description(batch []Item) string {
	var b strings.Builder
	b.WriteString("Published by ccrawl.\n\n")
	for _, it := range batch {
		b.WriteString("- " + it.RepoPath + "\n")
	}
	return b.String()
}
