// Command extractcmp compares the speed of ccrawl's extract package with a
// plain go-trafilatura Extract call (default options: what a naive user
// would run) on go-trafilatura's 983 annotated comparison pages, and writes
// ccrawl's Markdown as JSONL for extractbench to score.
//
// Both run interleaved page by page in one process (random order per page),
// GOMAXPROCS=1, with an untimed forced GC before every call, timed in process
// CPU time; on a shared machine only such ratios are stable.
//
//	go run ./bench/extractcmp -out /tmp/extractcmp/out.jsonl
//	extractbench score -gold .../gold.json /tmp/extractcmp/out.jsonl
//	extractbench unseen -gold .../gold.json /tmp/extractcmp/out.jsonl
//
// It does not score quality itself: extractbench does that.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	nurl "net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"syscall"
	"time"

	gt "github.com/markusmobius/go-trafilatura"

	"github.com/open-markdown/ccrawl/extract"
)

const benchModule = "github.com/markusmobius/go-trafilatura@v1.12.2"

type goldEntry struct {
	URL  string `json:"url"`
	Path string `json:"path"` // relative to the module root
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "extractcmp:", err)
		os.Exit(1)
	}
}

func run() error {
	goldPath := flag.String("gold", "/work/shared/tools/extractbench/gold.json", "extractbench gold file")
	out := flag.String("out", filepath.Join(os.TempDir(), "extractcmp", "out.jsonl"), "JSONL output of our Markdown")
	engine := flag.String("engine", extract.Default, "our engine")
	fallback := flag.Bool("fallback", true, "trafilatura engine: readability fallback (package default: true)")
	links := flag.Bool("links", true, "trafilatura engine: keep links (package default: true)")
	limit := flag.Int("limit", 0, "only the first N pages")
	seed := flag.Uint64("seed", 1, "seed of the per-page order")
	noPlain := flag.Bool("no-plain", false, "skip the plain go-trafilatura baseline")
	flag.Parse()
	runtime.GOMAXPROCS(1)

	ex, err := extract.New(*engine, extract.Fallback(*fallback), extract.Links(*links))
	if err != nil {
		return err
	}
	gold, err := loadGold(*goldPath)
	if err != nil {
		return err
	}
	if *limit > 0 && *limit < len(gold) {
		gold = gold[:*limit]
	}
	dir, err := moduleDir()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(*out), 0o755); err != nil {
		return err
	}
	f, err := os.Create(*out)
	if err != nil {
		return err
	}
	defer f.Close()
	w := bufio.NewWriter(f)
	enc := json.NewEncoder(w)

	var oursCPU, plainCPU, oursWall, plainWall time.Duration
	var oursErr, plainErr int
	start := time.Now()
	for i, e := range gold {
		raw, err := os.ReadFile(filepath.Join(dir, e.Path))
		if err != nil {
			return err
		}
		u, err := nurl.ParseRequestURI(e.URL)
		if err != nil {
			return fmt.Errorf("gold url %q: %w", e.URL, err)
		}
		order := []int{0, 1}
		if rand.New(rand.NewPCG(*seed, uint64(i))).IntN(2) == 1 {
			order = []int{1, 0}
		}
		var md string
		for _, k := range order {
			if k == 1 && *noPlain {
				continue
			}
			runtime.GC()
			c0, t0 := cpuNow(), time.Now()
			if k == 0 {
				md, err = ex.Extract(extract.Page{URL: e.URL, Body: raw, ContentType: "text/html"})
				oursCPU += cpuNow() - c0
				oursWall += time.Since(t0)
				if err != nil {
					oursErr++
				}
			} else {
				_, perr := gt.Extract(bytes.NewReader(raw), gt.Options{OriginalURL: u})
				plainCPU += cpuNow() - c0
				plainWall += time.Since(t0)
				if perr != nil {
					plainErr++
				}
			}
		}
		row := struct {
			URL      string `json:"url"`
			Markdown string `json:"markdown"`
			Error    string `json:"error,omitempty"`
		}{URL: e.URL, Markdown: md}
		if err != nil && !errors.Is(err, extract.ErrEmpty) {
			row.Error = err.Error()
		}
		if err := enc.Encode(row); err != nil {
			return err
		}
		if (i+1)%100 == 0 {
			fmt.Fprintf(os.Stderr, "extractcmp: %d/%d pages, %.0fs\n", i+1, len(gold), time.Since(start).Seconds())
		}
	}
	if err := w.Flush(); err != nil {
		return err
	}
	n := float64(len(gold))
	rate := func(d time.Duration) float64 {
		if d <= 0 {
			return 0
		}
		return n / d.Seconds()
	}
	fmt.Printf("| engine | docs/s (CPU) | docs/s (wall) | errors |\n|---|---|---|---|\n")
	fmt.Printf("| ccrawl extract %s (fallback=%v links=%v) | %.1f | %.1f | %d |\n", ex.Version(), *fallback, *links, rate(oursCPU), rate(oursWall), oursErr)
	if !*noPlain {
		fmt.Printf("| plain trafilatura.Extract (defaults) | %.1f | %.1f | %d |\n", rate(plainCPU), rate(plainWall), plainErr)
		fmt.Printf("\nratio (CPU) ours/plain: %.2f   ratio (wall): %.2f\n", plainCPU.Seconds()/oursCPU.Seconds(), plainWall.Seconds()/oursWall.Seconds())
	}
	fmt.Printf("%d pages, GOMAXPROCS=1, interleaved (seed %d), forced GC before each call; output %s\n", len(gold), *seed, *out)
	return nil
}

func loadGold(path string) ([]goldEntry, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var g []goldEntry
	if err := json.Unmarshal(b, &g); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return g, nil
}

// moduleDir finds the go-trafilatura module (which holds the pages) through
// the Go toolchain's ordinary module download.
func moduleDir() (string, error) {
	cmd := exec.Command("go", "mod", "download", "-json", benchModule)
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	b, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go mod download %s: %v: %s", benchModule, err, stderr.String())
	}
	var info struct{ Dir, Error string }
	if err := json.Unmarshal(b, &info); err != nil {
		return "", fmt.Errorf("go mod download %s: %w", benchModule, err)
	}
	if info.Error != "" || info.Dir == "" {
		return "", fmt.Errorf("go mod download %s: no module dir: %s", benchModule, info.Error)
	}
	return info.Dir, nil
}

// cpuNow is the process's CPU time (user + system), GC workers included.
func cpuNow() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
