package fetch

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

// BenchmarkRunLoopback measures the pool on real corpus pages served from
// loopback by 8 virtual hosts: the fetcher's own overhead (politeness
// bookkeeping, head capture, hashing), not any network.
func BenchmarkRunLoopback(b *testing.B) {
	pages := corpusPages(b, 50)
	v := newVhosts(b)
	const hosts = 8
	for h := range hosts {
		v.handle(fmt.Sprintf("h%d.test", h), http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			i, _ := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/p/"))
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Write(pages[i%len(pages)])
		}))
	}
	for _, workers := range []int{8, 32} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			f := newTestFetcher(b, Options{Workers: workers, PerHostConcurrency: 4})
			jobs := make(chan Job)
			out := make(chan *Result, 64)
			go func() {
				defer close(jobs)
				for i := range b.N {
					jobs <- Job{Index: i, URL: v.url(fmt.Sprintf("h%d.test", i%hosts), fmt.Sprintf("/p/%d", i))}
				}
			}()
			b.ResetTimer()
			start := time.Now()
			go f.Run(context.Background(), jobs, out)
			var bytes int64
			for r := range out {
				if r.Err != nil {
					b.Fatal(r.Err)
				}
				bytes += int64(len(r.Body))
			}
			sec := time.Since(start).Seconds()
			b.ReportMetric(float64(b.N)/sec, "pages/s")
			b.ReportMetric(float64(bytes)/sec/1e6, "MB/s")
		})
	}
}
