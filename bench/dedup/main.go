// Command dedupbench prepares inputs for and times the parts of `ccrawl
// dedup` that bench/dedup/run.sh reports. It is a benchmark helper, not part
// of ccrawl.
//
//	dedupbench synth -in export.parquet -out big.parquet -rows 21000
//	    grows a real export to a shard-sized file with the export schema:
//	    the real rows first, then new documents made by interleaving the
//	    paragraphs of two real rows (so the copies are not duplicates).
//	dedupbench run -runs 3 FILE...
//	    times dedup.Run in-process (best of runs), to compare with an
//	    in-process DuckDB query without either side's start-up cost.
//	dedupbench near -n 10000000 -distance 3
//	    times dedup.NearClusters on n random fingerprints and prints the
//	    wall time and peak heap.
package main

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/open-markdown/ccrawl/dataset"

	"github.com/open-markdown/ccrawl/dedup"
	"github.com/open-markdown/ccrawl/simhash"
	"github.com/parquet-go/parquet-go"
)

// exportRow is the open-markdown-v3 export schema, as the exporter writes it.
type exportRow = dataset.Row

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: dedupbench synth|near [flags]")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "synth":
		err = synth(os.Args[2:])
	case "near":
		err = near(os.Args[2:])
	case "run":
		err = run(os.Args[2:])
	default:
		err = fmt.Errorf("unknown subcommand %q", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "dedupbench:", err)
		os.Exit(1)
	}
}

func synth(args []string) error {
	fs := flag.NewFlagSet("synth", flag.ExitOnError)
	in := fs.String("in", "", "export Parquet to grow")
	out := fs.String("out", "", "output Parquet")
	n := fs.Int("rows", 21000, "rows to write")
	fs.Parse(args)
	rows, err := parquet.ReadFile[exportRow](*in)
	if err != nil {
		return fmt.Errorf("reading %s: %w", *in, err)
	}
	if len(rows) == 0 {
		return fmt.Errorf("%s has no rows", *in)
	}
	real := len(rows)
	for i := 0; len(rows) < *n; i++ {
		// A new document per i: the first half of page a and the second
		// half of page b, with b chosen per round so pairs do not repeat.
		round := i / real
		a, b := rows[i%real], rows[(i%real+1+round*37)%real]
		pa, pb := strings.Split(a.Markdown, "\n\n"), strings.Split(b.Markdown, "\n\n")
		mix := append(append([]string(nil), pa[:(len(pa)+1)/2]...), pb[len(pb)/2:]...)
		r := a
		r.Markdown = strings.Join(mix, "\n\n")
		r.MarkdownLength = int64(len(r.Markdown))
		r.Simhash = simhash.Fingerprint(r.Markdown)
		r.URL = fmt.Sprintf("%s#synth-%d", a.URL, i)
		r.DocID = fmt.Sprintf("synth-%d-%s", i, a.DocID)
		rows = append(rows, r)
	}
	return parquet.WriteFile(*out, rows[:*n], parquet.Compression(&parquet.Zstd))
}

func near(args []string) error {
	fs := flag.NewFlagSet("near", flag.ExitOnError)
	n := fs.Int("n", 10_000_000, "random fingerprints")
	d := fs.Int("distance", 3, "Hamming distance")
	fs.Parse(args)
	rng := rand.New(rand.NewPCG(1, 2))
	fps := make([]uint64, *n)
	for i := range fps {
		fps[i] = rng.Uint64()
	}
	// Plant 1000 near pairs so the pass has something to find.
	for i := 0; i < 1000 && 2*i+1 < *n; i++ {
		fps[2*i+1] = fps[2*i] ^ 1<<rng.IntN(64) ^ 1<<rng.IntN(64)
	}
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	roots, err := dedup.NearClusters(context.Background(), fps, *d, 0)
	if err != nil {
		return err
	}
	el := time.Since(start)
	joined := 0
	for i, r := range roots {
		if int(r) != i {
			joined++
		}
	}
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	fmt.Printf("near pass: %d prints, distance %d: %.2f s, %d rows joined, %d MB allocated (input %d MB), GOMAXPROCS %d\n",
		*n, *d, el.Seconds(), joined, (after.TotalAlloc-before.TotalAlloc)>>20, (8**n)>>20, runtime.GOMAXPROCS(0))
	return nil
}

func run(args []string) error {
	fs := flag.NewFlagSet("run", flag.ExitOnError)
	runs := fs.Int("runs", 3, "repetitions; the fastest is reported")
	fs.Parse(args)
	best := time.Duration(1 << 62)
	var rep *dedup.Report
	for range *runs {
		start := time.Now()
		var err error
		if rep, err = dedup.Run(context.Background(), fs.Args(), dedup.Options{Distance: 3}); err != nil {
			return err
		}
		best = min(best, time.Since(start))
	}
	fmt.Printf("%.3f %d\n", best.Seconds(), rep.Rows)
	return nil
}
