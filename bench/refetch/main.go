// Command refetch is the loopback benchmark of `ccrawl markdown refetch`:
// it serves the HTML pages of a corpus WARC from a local server under N
// URLs spread over many virtual paths, writes a WARC listing those URLs,
// runs the ccrawl binary on it and prints pages/s, peak RSS and the run's
// phase report.
//
//	go build -o /tmp/ccrawl ./cmd/ccrawl
//	go run ./bench/refetch -ccrawl /tmp/ccrawl -n 2000 ../shared/corpus/medium.warc.gz
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/open-markdown/ccrawl/warc"
)

func main() {
	bin := flag.String("ccrawl", "ccrawl", "ccrawl binary")
	n := flag.Int("n", 2000, "URLs to refetch")
	args := flag.String("args", "--ignore-robots --per-host 64", "extra refetch flags")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: refetch [-ccrawl BIN] [-n N] CORPUS.warc.gz")
		os.Exit(2)
	}
	pages, err := htmlPages(flag.Arg(0))
	if err != nil || len(pages) == 0 {
		fmt.Fprintln(os.Stderr, "no pages:", err)
		os.Exit(1)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		i, _ := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/p/"))
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(pages[i%len(pages)])
	})}
	go srv.Serve(ln)
	dir, _ := os.MkdirTemp("", "ccrawl-refetch-bench")
	defer os.RemoveAll(dir)
	shard := filepath.Join(dir, "urls.warc.gz")
	f, _ := os.Create(shard)
	w := warc.NewWriter(f, true)
	for i := 0; i < *n; i++ {
		u := fmt.Sprintf("http://%s/p/%d", ln.Addr(), i)
		w.WriteRecord(warc.Header{{Name: "WARC-Type", Value: "response"}, {Name: "WARC-Target-URI", Value: u}, {Name: "WARC-Date", Value: "2026-07-01T00:00:00Z"}},
			[]byte("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n"))
	}
	f.Close()
	cmdArgs := append([]string{"markdown", "refetch", shard, "--out", filepath.Join(dir, "out"), "--progress", "none"}, strings.Fields(*args)...)
	cmd := exec.Command(*bin, cmdArgs...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err = cmd.Run()
	el := time.Since(start)
	fmt.Print(out.String())
	if err != nil {
		fmt.Fprintln(os.Stderr, "ccrawl:", err)
		os.Exit(1)
	}
	rss := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss
	fmt.Printf("refetch bench: %d URLs in %.1fs = %.1f pages/s (whole process), peak RSS %d MB\n", *n, el.Seconds(), float64(*n)/el.Seconds(), rss/1024)
}

func htmlPages(path string) ([][]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rd, err := warc.NewReader(f)
	if err != nil {
		return nil, err
	}
	var out [][]byte
	for {
		rec, err := rd.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil || rec.Type != "response" {
			continue
		}
		resp, err := warc.ReadHTTPResponse(rec.Body)
		if err != nil || resp.Status != 200 || !strings.Contains(resp.ContentType(), "html") {
			continue
		}
		b, _ := io.ReadAll(resp.Body)
		out = append(out, b)
	}
}
