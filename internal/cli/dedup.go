package cli

import (
	"context"
	"fmt"

	"github.com/open-markdown/ccrawl/dedup"
	"github.com/spf13/cobra"
)

type dedupOptions struct {
	Paths     []string
	Distance  int
	Top       int
	JSON      bool
	Redundant string
}

func newDedupCmd(streams IO) *cobra.Command {
	opts := dedupOptions{}
	cmd := &cobra.Command{
		Use:   "dedup <parquet|dir>...",
		Short: "Report exact and near-duplicate rows in Markdown Parquet files (never rewrites them)",
		Long: `Reads the doc_id (or url), markdown and simhash columns of every Parquet file
named or found under the directories, and reports rows with byte-identical
Markdown (exact duplicates) and rows whose simhash fingerprints differ in at
most --distance bits (near duplicates, clustered transitively). Rows with
under 512 bytes of Markdown take part only in the exact pass. Files written
without a simhash column are fingerprinted while reading.

The input is never modified. --redundant writes the doc_ids that
deduplication would remove (every cluster member after the first in file
order) for an anti-join.`,
		Example: `  ccrawl dedup out/data
  ccrawl dedup --distance 6 --top 20 shard-00001.parquet shard-00002.parquet
  ccrawl dedup --json out/data > dedup.json
  ccrawl dedup --redundant drop.parquet out/data
  duckdb -c "SELECT * FROM 'out/data/*.parquet' ANTI JOIN 'drop.parquet' USING (doc_id)"`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Paths = args
			return runDedup(cmd.Context(), opts, streams)
		},
	}
	f := cmd.Flags()
	f.IntVar(&opts.Distance, "distance", 3, "near duplicates differ in at most this many of the 64 simhash bits (0-64)")
	f.IntVar(&opts.Top, "top", 10, "list this many of the largest clusters")
	f.BoolVar(&opts.JSON, "json", false, "print the whole report as JSON")
	f.StringVar(&opts.Redundant, "redundant", "", "write the doc_ids deduplication would remove to `FILE` (Parquet column doc_id, or one per line if FILE ends in .txt)")
	return cmd
}

func runDedup(ctx context.Context, opts dedupOptions, streams IO) error {
	if opts.Distance < 0 || opts.Distance > 64 {
		return usagef("--distance %d is out of range: a 64-bit fingerprint allows 0 to 64", opts.Distance)
	}
	if opts.Top < 0 {
		return usagef("--top %d is negative", opts.Top)
	}
	if ctx == nil {
		ctx = context.Background()
	}
	rep, err := dedup.Run(ctx, opts.Paths, dedup.Options{Distance: opts.Distance, Top: opts.Top})
	if err != nil {
		return err
	}
	if opts.Redundant != "" {
		if err := dedup.WriteIDs(opts.Redundant, rep.RedundantIDs()); err != nil {
			return err
		}
		rep.RedundantFile = opts.Redundant
	}
	if opts.JSON {
		err = rep.WriteJSON(streams.Out)
	} else {
		err = rep.WriteText(streams.Out)
	}
	if err != nil {
		return fmt.Errorf("dedup: writing report: %w", err)
	}
	return nil
}
