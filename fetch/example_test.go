package fetch_test

import (
	"context"
	"fmt"

	"github.com/open-markdown/ccrawl/fetch"
)

// How a refetch command drives the pool: size it from the fd limit, feed
// indexed jobs, and restore input order from Result.Index. (Not run: it
// would reach the network.)
func ExampleFetcher_Run() {
	limit, _ := fetch.RaiseFileLimit(1 << 16)
	f, err := fetch.New(fetch.Options{
		Workers:            fetch.AutoWorkers(limit, 1),
		PerHostConcurrency: 2,
		Rate:               1, // per host
	})
	if err != nil {
		panic(err)
	}
	defer f.CloseIdleConnections()

	urls := []string{"https://example.com/", "https://example.org/a"}
	ctx := context.Background()
	jobs := make(chan fetch.Job)
	out := make(chan *fetch.Result)
	go func() {
		defer close(jobs)
		for i, u := range urls {
			select {
			case jobs <- fetch.Job{Index: i, URL: u}:
			case <-ctx.Done():
				return
			}
		}
	}()
	go f.Run(ctx, jobs, out)
	ordered := make([]*fetch.Result, len(urls))
	for r := range out {
		ordered[r.Index] = r
	}
	for _, r := range ordered {
		fmt.Println(r.URL, r.Status, r.ErrClass, r.Digest)
	}
}
