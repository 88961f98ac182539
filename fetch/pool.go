package fetch

import (
	"context"
	"sync"
)

// Job is one URL for Run; Index comes back in Result.Index so the caller can
// restore input order from out-of-order results.
type Job struct {
	Index int
	URL   string
}

// Run fetches jobs with Options.Workers goroutines and sends one Result per
// job to out, closing out when jobs is closed and every result is sent.
// Goroutines are bounded by Workers no matter how many jobs arrive. When ctx
// is cancelled the workers stop taking jobs (a producer must select on
// ctx.Done too) and in-flight fetches end with an error result, which is
// still delivered unless out is not being read.
func (f *Fetcher) Run(ctx context.Context, jobs <-chan Job, out chan<- *Result) {
	var wg sync.WaitGroup
	for range f.opts.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				var (
					j  Job
					ok bool
				)
				select {
				case j, ok = <-jobs:
				case <-ctx.Done():
					return
				}
				if !ok {
					return
				}
				r := f.Fetch(ctx, j.URL)
				r.Index = j.Index
				select {
				case out <- r:
				case <-ctx.Done():
					return
				}
			}
		}()
	}
	wg.Wait()
	close(out)
}
