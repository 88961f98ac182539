// Command gen writes the sample shard and its truth file:
//
//	go run ./internal/sample/gen -out testdata/sample.warc.gz
//
// writes testdata/sample.warc.gz and testdata/sample.answers.json. Run it
// after changing anything in internal/sample and commit both files; the
// package test fails while they differ from what the generator writes.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"

	"github.com/open-markdown/ccrawl/internal/sample"
)

func main() {
	out := flag.String("out", "testdata/sample.warc.gz", "the WARC file to write")
	truth := flag.String("truth", "", "the truth JSON to write (default: next to -out, .warc.gz replaced by .answers.json)")
	flag.Parse()
	if *truth == "" {
		*truth = sample.TruthPath(*out)
	}
	if err := run(*out, *truth); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(warcPath, truthPath string) error {
	var w, t bytes.Buffer
	if err := sample.Write(&w, &t); err != nil {
		return err
	}
	if err := os.WriteFile(warcPath, w.Bytes(), 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(truthPath, t.Bytes(), 0o644); err != nil {
		return err
	}
	fmt.Printf("wrote %s (%d bytes) and %s (%d bytes)\n", warcPath, w.Len(), truthPath, t.Len())
	return nil
}
