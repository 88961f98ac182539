// Command warcread measures WARC parsing overhead: it times plain klauspost
// gunzip of a file against reading every record with package warc (every
// block read to io.Discard, the HTTP response parsed for response records)
// and prints both speeds and their ratio. The acceptance target is a ratio
// (warc speed / gunzip speed) of at least 0.9.
//
//	go run ./bench/warcread [-r N] FILE.warc.gz
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"
	"time"

	"github.com/klauspost/compress/gzip"
	"github.com/open-markdown/ccrawl/warc"
)

func main() {
	rounds := flag.Int("r", 3, "rounds; each reader runs this many times, interleaved, and the fastest run counts")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: warcread [-r N] FILE.warc.gz")
		os.Exit(2)
	}
	if err := run(flag.Arg(0), *rounds); err != nil {
		fmt.Fprintln(os.Stderr, "warcread:", err)
		os.Exit(1)
	}
}

type result struct {
	secs, cpu        float64 // wall and CPU (user+sys) seconds
	raw, records     int64
	corrupt, payload int64
}

func run(path string, rounds int) error {
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	// Warm the page cache so both readers see the same conditions.
	if _, err := timeIt(path, func(f *os.File) (result, error) { n, err := io.Copy(io.Discard, f); return result{raw: n}, err }); err != nil {
		return err
	}
	var best [2]result
	for i := 0; i < rounds; i++ {
		for k, fn := range []func(*os.File) (result, error){gunzip, readRecords} {
			r, err := timeIt(path, fn)
			if err != nil {
				return err
			}
			if i == 0 || r.secs < best[k].secs {
				best[k].secs = r.secs
			}
			if i == 0 || r.cpu < best[k].cpu {
				best[k].cpu = r.cpu
			}
			best[k].raw, best[k].records, best[k].corrupt, best[k].payload = r.raw, r.records, r.corrupt, r.payload
		}
	}
	mb := float64(st.Size()) / 1e6
	g, w := best[0], best[1]
	fmt.Printf("file: %s (%.1f MB gzip, %.1f MB uncompressed), best of %d rounds, loadavg %s\n", path, mb, float64(g.raw)/1e6, rounds, loadavg())
	fmt.Printf("klauspost gunzip:   %7.3f s wall %7.3f s cpu  %7.1f MB/s gz  %7.1f MB/s raw\n", g.secs, g.cpu, mb/g.secs, float64(g.raw)/1e6/g.secs)
	fmt.Printf("warc read records:  %7.3f s wall %7.3f s cpu  %7.1f MB/s gz  %7.1f MB/s raw  (%d records, %d corrupt, %.1f MB payload)\n",
		w.secs, w.cpu, mb/w.secs, float64(g.raw)/1e6/w.secs, w.records, w.corrupt, float64(w.payload)/1e6)
	fmt.Printf("ratio (warc speed / gunzip speed): %.3f wall, %.3f cpu\n", g.secs/w.secs, g.cpu/w.cpu)
	return nil
}

func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	return strings.Join(f[:min(3, len(f))], " ")
}

func timeIt(path string, fn func(*os.File) (result, error)) (result, error) {
	f, err := os.Open(path)
	if err != nil {
		return result{}, err
	}
	defer f.Close()
	cpu0 := cpuSeconds()
	start := time.Now()
	r, err := fn(f)
	r.secs = time.Since(start).Seconds()
	r.cpu = cpuSeconds() - cpu0
	return r, err
}

// cpuSeconds is the process's CPU time so far; on a machine shared with
// other jobs it varies less than wall time.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	tv := func(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)/1e6 }
	return tv(ru.Utime) + tv(ru.Stime)
}

func gunzip(f *os.File) (result, error) {
	zr, err := gzip.NewReader(bufio.NewReaderSize(f, 256<<10))
	if err != nil {
		return result{}, err
	}
	n, err := io.Copy(io.Discard, zr)
	return result{raw: n}, err
}

func readRecords(f *os.File) (result, error) {
	var r result
	rd, err := warc.NewReader(f)
	if err != nil {
		return r, err
	}
	for {
		rec, err := rd.Next()
		if err == io.EOF {
			return r, nil
		}
		var ce *warc.CorruptError
		if errors.As(err, &ce) {
			r.corrupt++
			continue
		}
		if err != nil {
			return r, err
		}
		r.records++
		body := rec.Body
		if rec.Type == "response" {
			resp, err := warc.ReadHTTPResponse(rec.Body)
			if err != nil {
				return r, fmt.Errorf("record at offset %d: %w", rec.Offset, err)
			}
			body = resp.Body
		}
		n, err := io.Copy(io.Discard, body)
		if err != nil {
			return r, fmt.Errorf("record at offset %d: %w", rec.Offset, err)
		}
		r.payload += n
	}
}
