package pipeline

import (
	"context"
	"fmt"
	"os"
	"sync"

	"github.com/open-markdown/ccrawl/dataset"
	"github.com/open-markdown/ccrawl/hub"
)

// HubPublisher publishes durable shard files to a Hub dataset repo through
// a background committer. A shard is acknowledged (and so enters the
// ledger) only after the commit holding it is acknowledged by the Hub.
type HubPublisher struct {
	committer *hub.Committer
	keep      bool
	info      CardInfo

	mu      sync.Mutex
	waiting map[string]func(error) // by repo path
	pushed  []LedgerEntry          // what the repo holds: earlier runs + acknowledged now
	warned  map[string]bool
	files   map[string]int // files per folder, for the 10,000-file warning
	log     func(string)
}

// PublisherConfig configures NewHubPublisher.
type PublisherConfig struct {
	Client      *hub.Client
	Repo        string
	Private     bool
	BatchSize   int
	Crawl       string
	KeepParquet bool
	Card        CardInfo
	Prior       []LedgerEntry // ledger entries already pushed by earlier runs
	Log         func(string)
}

// NewHubPublisher creates the repo if needed and starts the committer.
func NewHubPublisher(ctx context.Context, cfg PublisherConfig) (*HubPublisher, error) {
	if err := cfg.Client.CreateRepo(ctx, cfg.Repo, cfg.Private); err != nil {
		return nil, err
	}
	p := &HubPublisher{keep: cfg.KeepParquet, info: cfg.Card, waiting: map[string]func(error){}, warned: map[string]bool{}, files: map[string]int{}, log: cfg.Log}
	if p.log == nil {
		p.log = func(string) {}
	}
	for _, e := range cfg.Prior {
		if e.Pushed {
			p.pushed = append(p.pushed, e)
			p.files[folderOf(e.Path)]++
		}
	}
	p.committer = hub.NewCommitter(ctx, cfg.Client, cfg.Repo, hub.CommitterConfig{
		BatchSize: cfg.BatchSize,
		Crawl:     cfg.Crawl,
		Card:      p.card,
		OnAck:     p.onAck,
	})
	return p, nil
}

// Enqueue implements Publisher.
func (p *HubPublisher) Enqueue(ctx context.Context, r ShardResult, done func(error)) error {
	repoPath := dataset.ShardRepoPath(r.Crawl, r.Shard.Number)
	p.mu.Lock()
	p.waiting[repoPath] = done
	folder := folderOf(repoPath)
	p.files[folder]++
	if w := hub.FolderWarning(p.files[folder], folder); w != "" && !p.warned[folder] {
		p.warned[folder] = true
		p.log(w)
	}
	p.mu.Unlock()
	err := p.committer.Add(ctx, hub.Item{LocalPath: r.Path, RepoPath: repoPath, Shard: fmt.Sprintf("%06d", r.Shard.Number), Info: r})
	if err != nil {
		p.mu.Lock()
		delete(p.waiting, repoPath)
		p.mu.Unlock()
	}
	return err
}

// card renders the README for a commit: what the repo holds plus the batch.
func (p *HubPublisher) card(batch []hub.Item) []byte {
	p.mu.Lock()
	entries := append([]LedgerEntry{}, p.pushed...)
	p.mu.Unlock()
	for _, it := range batch {
		if r, ok := it.Info.(ShardResult); ok {
			entries = append(entries, entryFor(r, it.RepoPath))
		}
	}
	return hub.RenderCard(Card(p.info, entries))
}

func (p *HubPublisher) onAck(a hub.Ack) {
	r, _ := a.Info.(ShardResult)
	p.mu.Lock()
	p.pushed = append(p.pushed, entryFor(r, a.RepoPath))
	done := p.waiting[a.RepoPath]
	delete(p.waiting, a.RepoPath)
	p.mu.Unlock()
	if done != nil {
		done(nil) // writes the ledger entry
	}
	// Only now, with the shard in the ledger, is the local copy redundant.
	if !p.keep {
		os.Remove(a.LocalPath)
	}
}

// Close flushes the last batch; shards never acknowledged are reported
// failed (their files stay on disk for the next run).
func (p *HubPublisher) Close(ctx context.Context) error {
	err := p.committer.Close(ctx)
	p.mu.Lock()
	left := p.waiting
	p.waiting = map[string]func(error){}
	p.mu.Unlock()
	for path, done := range left {
		e := err
		if e == nil {
			e = fmt.Errorf("%s was not committed", path)
		}
		done(e)
	}
	return err
}

func entryFor(r ShardResult, repoPath string) LedgerEntry {
	return LedgerEntry{Key: r.Shard.Key(), Shard: r.Shard.Number, Crawl: r.Crawl, Path: repoPath, Rows: r.Stats.Rows, Bytes: r.Stats.ParquetBytes, Pushed: true, DigestDropped: r.Stats.DigestDropped, RowLangs: r.Stats.RowLangs}
}

func folderOf(p string) string {
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] == '/' {
			return p[:i]
		}
	}
	return ""
}
