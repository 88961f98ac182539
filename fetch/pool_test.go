package fetch

import (
	"context"
	"fmt"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// 2,000 URLs over 20 hosts: every job comes back exactly once with its own
// page, robots.txt is fetched once per host, and goroutines stay bounded by
// the pool size, not by the number of URLs.
func TestRunPool(t *testing.T) {
	const (
		nURLs   = 2000
		nHosts  = 20
		workers = 16
		perHost = 2
	)
	v := newVhosts(t)
	for h := range nHosts {
		v.handle(fmt.Sprintf("h%d.test", h), http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprint(w, "page "+r.Host+r.URL.Path)
		}))
	}
	f := newTestFetcher(t, Options{Workers: workers, PerHostConcurrency: perHost})
	base := runtime.NumGoroutine()

	var peak atomic.Int64
	stop := make(chan struct{})
	var sampler sync.WaitGroup
	sampler.Add(1)
	go func() {
		defer sampler.Done()
		for {
			peak.Store(max(peak.Load(), int64(runtime.NumGoroutine())))
			select {
			case <-stop:
				return
			case <-time.After(time.Millisecond):
			}
		}
	}()

	jobs := make(chan Job)
	out := make(chan *Result, 8)
	urls := make([]string, nURLs)
	for i := range urls {
		urls[i] = v.url(fmt.Sprintf("h%d.test", i%nHosts), fmt.Sprintf("/doc/%d", i))
	}
	go func() {
		defer close(jobs)
		for i, u := range urls {
			jobs <- Job{Index: i, URL: u}
		}
	}()
	go f.Run(context.Background(), jobs, out)

	got := make([]*Result, nURLs)
	for r := range out {
		if r.Index < 0 || r.Index >= nURLs || got[r.Index] != nil {
			t.Fatalf("bad or repeated index %d", r.Index)
		}
		got[r.Index] = r
	}
	close(stop)
	sampler.Wait()

	for i, r := range got {
		if r == nil {
			t.Fatalf("job %d never came back", i)
		}
		if r.Err != nil {
			t.Fatalf("job %d: %v", i, r.Err)
		}
		host := fmt.Sprintf("h%d.test", i%nHosts)
		if r.URL != urls[i] || !strings.HasPrefix(string(r.Body), "page "+host+":") || !strings.HasSuffix(string(r.Body), fmt.Sprintf("/doc/%d", i)) {
			t.Fatalf("job %d (%s) got body %q", i, r.URL, r.Body)
		}
	}
	for h := range nHosts {
		if n := v.count(fmt.Sprintf("h%d.test", h), "/robots.txt"); n != 1 {
			t.Errorf("h%d.test: robots.txt fetched %d times, want 1", h, n)
		}
	}
	// Each connection (active <= workers, idle <= 2*workers) costs the
	// transport's read and write loops plus the server's goroutine; add the
	// workers themselves. A goroutine per URL would blow far past this.
	bound := int64(base + workers + 3*3*workers + 32)
	if p := peak.Load(); p > bound {
		t.Errorf("peak %d goroutines for %d URLs, want <= %d", p, nURLs, bound)
	}
	t.Logf("peak goroutines %d (base %d, bound %d)", peak.Load(), base, bound)
}

// Cancelling the context ends Run promptly even with jobs left and a host
// that never answers.
func TestRunCancel(t *testing.T) {
	v := newVhosts(t)
	release := make(chan struct{})
	defer close(release)
	v.handle("hang.test", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	f := newTestFetcher(t, Options{Workers: 4, IgnoreRobots: true, Timeout: time.Minute})
	ctx, cancel := context.WithCancel(context.Background())
	jobs := make(chan Job)
	out := make(chan *Result)
	go func() {
		defer close(jobs)
		for i := 0; ; i++ {
			select {
			case jobs <- Job{Index: i, URL: v.url("hang.test", fmt.Sprintf("/%d", i))}:
			case <-ctx.Done():
				return
			}
		}
	}()
	done := make(chan struct{})
	go func() {
		for range out {
		}
		close(done)
	}()
	go f.Run(ctx, jobs, out)
	time.Sleep(100 * time.Millisecond)
	cancel()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return after cancel")
	}
}
