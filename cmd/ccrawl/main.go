// Command ccrawl turns Common Crawl WARC shards into Markdown Parquet datasets.
// All behaviour lives in internal/cli and the stage packages; main only maps
// the result to an exit code.
package main

import (
	"os"

	"github.com/open-markdown/ccrawl/internal/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
