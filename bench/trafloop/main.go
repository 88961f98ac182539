// Command trafloop is the speed baseline for bench/export.sh: it reads the
// HTTP 200 HTML pages of a WARC and calls plain go-trafilatura Extract
// (default options, as a naive user would) on each with N workers, and
// prints pages/s. Reading is done first so only extraction is timed.
//
//	go run ./bench/trafloop -workers 2 shard.warc.gz
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"

	trafilatura "github.com/markusmobius/go-trafilatura"
	"github.com/open-markdown/ccrawl/warc"
)

type page struct {
	url  string
	body []byte
}

func main() {
	workers := flag.Int("workers", 2, "extraction goroutines")
	limit := flag.Int("limit", 0, "pages to extract (0 = all)")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: trafloop [-workers N] [-limit N] FILE.warc.gz")
		os.Exit(2)
	}
	f, err := os.Open(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	rd, err := warc.NewReader(f)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	var pages []page
	var htmlBytes int64
	for {
		rec, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			continue
		}
		if rec.Type != "response" {
			continue
		}
		resp, err := warc.ReadHTTPResponse(rec.Body)
		if err != nil || resp.Status != 200 {
			continue
		}
		ct := strings.ToLower(resp.ContentType())
		if !strings.Contains(ct, "html") && !strings.Contains(strings.ToLower(rec.IdentifiedPayloadType()), "html") {
			continue
		}
		b, _ := io.ReadAll(resp.Body)
		pages = append(pages, page{rec.TargetURI(), b})
		htmlBytes += int64(len(b))
		if *limit > 0 && len(pages) >= *limit {
			break
		}
	}
	jobs := make(chan page)
	var wg sync.WaitGroup
	var mu sync.Mutex
	ok := 0
	start := time.Now()
	for i := 0; i < *workers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n := 0
			for p := range jobs {
				u, _ := url.Parse(p.url)
				res, err := trafilatura.Extract(bytes.NewReader(p.body), trafilatura.Options{OriginalURL: u})
				if err == nil && res != nil {
					n++
				}
			}
			mu.Lock()
			ok += n
			mu.Unlock()
		}()
	}
	for _, p := range pages {
		jobs <- p
	}
	close(jobs)
	wg.Wait()
	el := time.Since(start)
	fmt.Printf("trafilatura.Extract: %d pages (%d extracted) in %.1fs with %d workers: %.1f pages/s, %.1f MB/s of HTML\n",
		len(pages), ok, el.Seconds(), *workers, float64(len(pages))/el.Seconds(), float64(htmlBytes)/1e6/el.Seconds())
}
