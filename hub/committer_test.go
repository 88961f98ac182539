package hub_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/open-markdown/ccrawl/hub"
	"github.com/open-markdown/ccrawl/hub/hubtest"
)

// fakeClock advances only when slept on.
type fakeClock struct {
	mu    sync.Mutex
	t     time.Time
	slept []time.Duration
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Sleep(ctx context.Context, d time.Duration) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
	c.slept = append(c.slept, d)
	return ctx.Err()
}

func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func TestCommitterBatchesAndAcks(t *testing.T) {
	paths := corpus(t, "small.warc.gz", "small-b.warc.gz", "small-c.warc.gz")
	srv := newServer(t, hubtest.Options{})
	srv.CreateRepo(testRepo)
	c := newClient(srv, &sleeps{})

	var mu sync.Mutex
	var acks []hub.Ack
	cards := 0
	cm := hub.NewCommitter(context.Background(), c, testRepo, hub.CommitterConfig{
		BatchSize: 2,
		Crawl:     "CC-MAIN-2025-43",
		Card: func([]hub.Item) []byte {
			mu.Lock()
			defer mu.Unlock()
			cards++
			return []byte(fmt.Sprintf("# card after %d shards\n", len(acks)))
		},
		OnAck: func(a hub.Ack) {
			mu.Lock()
			defer mu.Unlock()
			acks = append(acks, a)
		},
	})
	var items []hub.Item
	for i, p := range paths {
		it := hub.Item{LocalPath: p, RepoPath: fmt.Sprintf("data/crawl=CC-MAIN-2025-43/%06d.parquet", i), Info: i}
		items = append(items, it)
		if err := cm.Add(context.Background(), it); err != nil {
			t.Fatal(err)
		}
	}
	if err := cm.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := cm.Add(context.Background(), items[0]); !errors.Is(err, hub.ErrCommitterClosed) {
		t.Errorf("Add after Close = %v, want ErrCommitterClosed", err)
	}

	commits := srv.Commits(testRepo)
	if len(commits) != 2 {
		t.Fatalf("%d commits, want 2 (batch of 2, then the partial batch of 1)", len(commits))
	}
	wantSummaries := []string{"Add shards 000000, 000001 of CC-MAIN-2025-43", "Add shard 000002 of CC-MAIN-2025-43"}
	for i, c := range commits {
		if c.Summary != wantSummaries[i] {
			t.Errorf("commit %d summary = %q, want %q", i, c.Summary, wantSummaries[i])
		}
		hasCard := false
		for _, op := range c.Ops {
			hasCard = hasCard || op.Path == "README.md"
		}
		if !hasCard {
			t.Errorf("commit %d does not carry the card", i)
		}
	}
	if got := string(srv.Files(testRepo)["README.md"]); got != "# card after 2 shards\n" {
		t.Errorf("README.md = %q: the card must be rendered at commit time", got)
	}
	if len(acks) != 3 {
		t.Fatalf("%d acks, want 3", len(acks))
	}
	for i, a := range acks {
		if a.Info != i || a.Commit.OID != commits[i/2].OID {
			t.Errorf("ack %d = info %v commit %s, want info %d commit %s", i, a.Info, a.Commit.OID, i, commits[i/2].OID)
		}
	}
	ops := make([]hub.Operation, len(items))
	for i, it := range items {
		ops[i] = hub.Operation{LocalPath: it.LocalPath, RepoPath: it.RepoPath}
	}
	checkPublished(t, srv, ops)
	if st := cm.Stats(); st.Commits != 2 || st.Items != 3 {
		t.Errorf("stats = %+v", st)
	}
}

func TestCommitterWaitsForHourlyLimit(t *testing.T) {
	tests := []struct {
		name    string
		max     int // 0: the default 128
		items   int
		perAck  time.Duration // fake time spent between commits
		waits   []time.Duration
		commits int
	}{
		// 128 commits at one instant fill the window; the 129th waits the
		// full hour, after which the 130th fits at once.
		{"default limit", 0, hub.DefaultCommitsPerHour + 2, 0, []time.Duration{time.Hour}, hub.DefaultCommitsPerHour + 2},
		// Sliding, not fixed, window: commits at 0, 20m; the 3rd waits for
		// the 0m one to age out (60m), the 4th fits at 80m, the 5th waits
		// until 120m.
		{"sliding window", 2, 5, 20 * time.Minute, []time.Duration{20 * time.Minute, 20 * time.Minute}, 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newServer(t, hubtest.Options{})
			srv.CreateRepo(testRepo)
			c := newClient(srv, &sleeps{})
			clk := &fakeClock{t: time.Date(2026, 11, 30, 2, 0, 0, 0, time.UTC)}
			cm := hub.NewCommitter(context.Background(), c, testRepo, hub.CommitterConfig{
				MaxCommitsPerHour: tt.max, Now: clk.Now, Sleep: clk.Sleep,
				// OnAck runs on the committer goroutine between commits, so
				// advancing the clock here is deterministic.
				OnAck: func(hub.Ack) { clk.advance(tt.perAck) },
			})
			dir := t.TempDir()
			for i := 0; i < tt.items; i++ {
				p := filepath.Join(dir, fmt.Sprintf("%06d.parquet", i))
				if err := os.WriteFile(p, []byte(fmt.Sprintf("PAR1 shard %d PAR1", i)), 0o644); err != nil {
					t.Fatal(err)
				}
				if err := cm.Add(context.Background(), hub.Item{LocalPath: p, RepoPath: "data/crawl=X/" + filepath.Base(p)}); err != nil {
					t.Fatal(err)
				}
			}
			if err := cm.Close(context.Background()); err != nil {
				t.Fatal(err)
			}
			if got := len(srv.Commits(testRepo)); got != tt.commits {
				t.Fatalf("%d commits, want %d", got, tt.commits)
			}
			if fmt.Sprint(clk.slept) != fmt.Sprint(tt.waits) {
				t.Errorf("waited %v, want %v", clk.slept, tt.waits)
			}
			var total time.Duration
			for _, w := range tt.waits {
				total += w
			}
			if st := cm.Stats(); st.Waited != total {
				t.Errorf("Stats().Waited = %v, want %v", st.Waited, total)
			}
		})
	}
}

func TestCommitterStopsOnError(t *testing.T) {
	srv := newServer(t, hubtest.Options{})
	srv.CreateRepo(testRepo)
	c := newClient(srv, &sleeps{})
	c.MaxAttempts = 2
	srv.Inject(hubtest.Fault{Endpoint: hubtest.EndpointCommit, Kind: hubtest.ServerError, Count: 100})
	acked := 0
	cm := hub.NewCommitter(context.Background(), c, testRepo, hub.CommitterConfig{OnAck: func(hub.Ack) { acked++ }})
	p := filepath.Join(t.TempDir(), "0.parquet")
	if err := os.WriteFile(p, []byte("PAR1"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The queue holds one batch, so within a few Adds one must wait for
	// the failed commit and the next must report it.
	var addErr error
	for i := 0; i < 100 && addErr == nil; i++ {
		addErr = cm.Add(context.Background(), hub.Item{LocalPath: p, RepoPath: fmt.Sprintf("%d.parquet", i)})
	}
	err := cm.Close(context.Background())
	if err == nil || !strings.Contains(err.Error(), "500") {
		t.Fatalf("Close = %v, want the commit's 500", err)
	}
	if addErr == nil {
		t.Error("Add kept accepting after a failed commit")
	}
	if acked != 0 || len(srv.Commits(testRepo)) != 0 {
		t.Errorf("acked %d, commits %d: a failed commit must ack nothing", acked, len(srv.Commits(testRepo)))
	}
}

func TestSummary(t *testing.T) {
	many := make([]hub.Item, 12)
	for i := range many {
		many[i] = hub.Item{RepoPath: fmt.Sprintf("data/crawl=X/%06d.parquet", i)}
	}
	tests := []struct {
		items []hub.Item
		crawl string
		want  string
	}{
		{[]hub.Item{{RepoPath: "data/crawl=X/000007.parquet"}}, "CC-MAIN-2026-30", "Add shard 000007 of CC-MAIN-2026-30"},
		{[]hub.Item{{Shard: "a"}, {Shard: "b"}}, "", "Add shards a, b"},
		{many, "X", "Add 12 shards 000000 … 000011 of X"},
	}
	for _, tt := range tests {
		if got := hub.Summary(tt.items, tt.crawl); got != tt.want {
			t.Errorf("Summary = %q, want %q", got, tt.want)
		}
	}
}
