// Package dedup reports exact and near duplicates across ccrawl Parquet
// datasets: rows whose Markdown is byte-identical, and rows whose simhash
// fingerprints (package simhash) are within a Hamming distance, clustered
// transitively. It reads only the doc_id, url, markdown and simhash columns,
// by name (url stands in for a missing doc_id and names cluster members in
// the report), so it works on every ccrawl schema, including files written
// before the simhash column existed (those rows are fingerprinted while
// reading).
//
// Clusters span all inputs, and the row kept from each is the first in file
// order (arguments in the order given, directories walked lexically, rows in
// file order), never the first one read, so parallel reading cannot change
// the answer. Near pairs are found with an index that is exact by
// construction (see near.go), not a sampled LSH.
//
// It deliberately never rewrites its input: it reports, and writes the list
// of doc_ids that deduplication would remove, so the caller decides what to
// drop (for example with an anti-join). It keeps no Markdown in memory, only
// a 128-bit hash, a fingerprint, a size and the ids of every row.
package dedup

import (
	"cmp"
	"context"
	"fmt"
	"runtime"
	"slices"
)

// MinNearBytes is the Markdown size below which a row takes no part in the
// near pass: a print of a few short lines says little, and short pages
// (menus, error stubs) would join unrelated pages. Such rows still cluster
// as exact duplicates.
const MinNearBytes = 512

// Options tune a dedup run. The zero value is not useful: use Distance 3.
type Options struct {
	Distance int // near duplicates differ in at most this many bits, 0..64
	Top      int // clusters listed in the report, largest first
	Workers  int // parallel file/row-group readers and index workers; 0 = GOMAXPROCS
}

// Report is the outcome of a run. Sizes are Markdown bytes that removing
// the redundant rows would save.
type Report struct {
	Files         int       `json:"files"`
	Rows          int       `json:"rows"`
	Distance      int       `json:"distance"`
	MinNearBytes  int       `json:"min_near_bytes"`
	Exact         Tally     `json:"exact"`
	Near          Tally     `json:"near"`
	Redundant     int       `json:"redundant"`
	NoFingerprint int       `json:"no_fingerprint"`
	Fingerprinted int       `json:"fingerprinted_on_the_fly"`
	Clusters      int       `json:"clusters"`
	Top           []Cluster `json:"top_clusters"`
	RedundantFile string    `json:"redundant_file,omitempty"`

	redundantIDs []string
}

// Tally counts one kind of duplicate: Rows are the members that would be
// removed (all but the first of each cluster), Clusters the groups they
// belong to.
type Tally struct {
	Rows     int   `json:"rows"`
	Clusters int   `json:"clusters"`
	Bytes    int64 `json:"bytes"`
}

// Cluster is one group of rows joined by exact or near duplication. Members
// are in file order, the kept one first; at most maxMembers are listed.
type Cluster struct {
	Size    int      `json:"size"`
	Exact   int      `json:"exact"` // members byte-identical to an earlier member
	Near    int      `json:"near"`  // other removable members
	Bytes   int64    `json:"bytes"`
	Members []Member `json:"members"`
}

// Member is one row of a cluster.
type Member struct {
	DocID string `json:"doc_id"`
	URL   string `json:"url,omitempty"`
	Bytes int64  `json:"markdown_bytes"`
}

const maxMembers = 10

// RedundantIDs returns the doc_ids (or urls, for files without doc_id) that
// deduplication would remove, in file order: every cluster member after the
// first.
func (r *Report) RedundantIDs() []string { return r.redundantIDs }

// Run reads every Parquet file under paths and returns the report.
func Run(ctx context.Context, paths []string, opts Options) (*Report, error) {
	if opts.Distance < 0 || opts.Distance > 64 {
		return nil, fmt.Errorf("dedup: distance %d out of range 0..64", opts.Distance)
	}
	if opts.Workers <= 0 {
		opts.Workers = runtime.GOMAXPROCS(0)
	}
	files, err := Files(paths)
	if err != nil {
		return nil, err
	}
	rs, err := readAll(ctx, files, opts.Workers)
	if err != nil {
		return nil, err
	}
	if len(rs.id) == 0 {
		return nil, fmt.Errorf("dedup: %w: %d files hold no rows", ErrNoInput, len(files))
	}
	rep, err := analyse(ctx, rs, opts)
	if err != nil {
		return nil, err
	}
	rep.Files = len(files)
	return rep, nil
}

// analyse clusters the rows: exact duplicates by Markdown hash, then near
// duplicates among the first copies, and counts what removal would save.
func analyse(ctx context.Context, rs *rows, opts Options) (*Report, error) {
	n := len(rs.id)
	rep := &Report{Rows: n, Distance: opts.Distance, MinNearBytes: MinNearBytes, Fingerprinted: rs.computed}
	uf := newUnionFind(n)
	exactDup := make([]bool, n)
	first := make(map[hash128]int32, n)
	seenTwice := map[int32]bool{}
	var cand []int32
	for i := range n {
		if rs.size[i] == 0 || rs.fp[i] == 0 {
			rep.NoFingerprint++ // left alone: nothing to compare
			continue
		}
		if j, ok := first[rs.hash[i]]; ok {
			uf.union(j, int32(i))
			exactDup[i] = true
			if !seenTwice[j] {
				seenTwice[j] = true
				rep.Exact.Clusters++
			}
			continue
		}
		first[rs.hash[i]] = int32(i)
		if rs.size[i] >= MinNearBytes {
			cand = append(cand, int32(i))
		}
	}
	first, seenTwice = nil, nil

	fps := make([]uint64, len(cand))
	for k, i := range cand {
		fps[k] = rs.fp[i]
	}
	roots, err := NearClusters(ctx, fps, opts.Distance, opts.Workers)
	if err != nil {
		return nil, err
	}
	for k, r := range roots {
		if int(r) != k {
			uf.union(cand[r], cand[k])
		}
	}

	type agg struct {
		size, exact, near int
		bytes             int64
	}
	comps := map[int32]*agg{}
	for i := range n {
		root := uf.find(int32(i))
		if int(root) == i {
			continue
		}
		c := comps[root]
		if c == nil {
			c = &agg{size: 1}
			comps[root] = c
		}
		c.size++
		c.bytes += rs.size[i]
		rep.redundantIDs = append(rep.redundantIDs, rs.id[i])
		if exactDup[i] {
			c.exact++
			rep.Exact.Rows++
			rep.Exact.Bytes += rs.size[i]
		} else {
			c.near++
			rep.Near.Rows++
			rep.Near.Bytes += rs.size[i]
		}
	}
	rep.Redundant = rep.Exact.Rows + rep.Near.Rows
	rep.Clusters = len(comps)
	type top struct {
		root int32
		*agg
	}
	var all []top
	for root, c := range comps {
		if c.near > 0 {
			rep.Near.Clusters++
		}
		all = append(all, top{root, c})
	}
	slices.SortFunc(all, func(a, b top) int {
		return cmp.Or(cmp.Compare(b.size, a.size), cmp.Compare(a.root, b.root))
	})
	all = all[:min(len(all), max(opts.Top, 0))]
	want := map[int32]int{}
	for k, t := range all {
		want[t.root] = k
		rep.Top = append(rep.Top, Cluster{Size: t.size, Exact: t.exact, Near: t.near, Bytes: t.bytes})
	}
	for i := range n {
		k, ok := want[uf.find(int32(i))]
		if !ok || len(rep.Top[k].Members) == maxMembers {
			continue
		}
		rep.Top[k].Members = append(rep.Top[k].Members, Member{DocID: rs.id[i], URL: rs.url[i], Bytes: rs.size[i]})
	}
	return rep, nil
}
