package cli

import (
	"context"
	"math/bits"
	"path/filepath"
	"testing"

	"github.com/open-markdown/ccrawl/dataset"
	"github.com/open-markdown/ccrawl/dedup"
	"github.com/open-markdown/ccrawl/internal/testutil"
	"github.com/open-markdown/ccrawl/simhash"
)

// TestDedupOnCorpusExport runs `ccrawl dedup`'s engine on a real export of
// the corpus and checks it against the truth file.
func TestDedupOnCorpusExport(t *testing.T) {
	truth := testutil.LoadTruth(t, testutil.Shared(t, "corpus/small.warc.gz.truth.json"))
	dir, rows, _ := exportSmall(t)
	rep, err := dedup.Run(context.Background(), []string{filepath.Join(dir, "data")}, dedup.Options{Distance: 3})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Rows != len(rows) {
		t.Fatalf("report has %d rows, file %d", rep.Rows, len(rows))
	}

	// Exact clusters are exactly the groups of identical Markdown.
	groups := map[string][]int{}
	for i, r := range rows {
		if r.Simhash != simhash.Fingerprint(r.Markdown) {
			t.Errorf("%s: stored simhash %x, recomputed %x", r.URL, r.Simhash, simhash.Fingerprint(r.Markdown))
		}
		groups[r.Markdown] = append(groups[r.Markdown], i)
	}
	wantRows, wantClusters := 0, 0
	for _, g := range groups {
		if len(g) > 1 {
			wantClusters++
			wantRows += len(g) - 1
		}
	}
	if wantClusters == 0 {
		t.Fatal("corpus export has no identical Markdown to test with")
	}
	if rep.Exact.Rows != wantRows || rep.Exact.Clusters != wantClusters {
		t.Errorf("exact: %d rows in %d clusters, want %d in %d", rep.Exact.Rows, rep.Exact.Clusters, wantRows, wantClusters)
	}

	// Near pairs at distance <= 3 among rows of >= 512 bytes, one per
	// distinct Markdown (exact copies are the exact pass's business).
	byID := map[string]testutil.Capture{}
	for _, c := range truth.Captures {
		byID[c.RecordID] = c
	}
	var near []int
	for md, g := range groups {
		if len(md) >= dedup.MinNearBytes {
			near = append(near, g[0])
		}
	}
	related := func(a, b dataset.Row) bool {
		ca, cb := byID[a.WARCRecordID], byID[b.WARCRecordID]
		return (ca.NearGroup != "" && ca.NearGroup == cb.NearGroup) || (ca.ExactGroup != "" && ca.ExactGroup == cb.ExactGroup)
	}
	parent := map[int]int{}
	var find func(int) int
	find = func(i int) int {
		if p, ok := parent[i]; ok && p != i {
			parent[i] = find(p)
			return parent[i]
		}
		return i
	}
	pairs, good := 0, 0
	for x := 0; x < len(near); x++ {
		for y := x + 1; y < len(near); y++ {
			a, b := rows[near[x]], rows[near[y]]
			if bits.OnesCount64(a.Simhash^b.Simhash) <= 3 {
				pairs++
				if related(a, b) {
					good++
				}
				parent[find(near[x])] = find(near[y])
			}
		}
	}
	if pairs > 0 && float64(good) < 0.95*float64(pairs) {
		t.Errorf("only %d of %d near pairs belong to a truth group", good, pairs)
	}
	// Join exact copies to their first row, then count truth near groups
	// (members >= 512 bytes of Markdown) that ended in one cluster.
	for _, g := range groups {
		for _, i := range g[1:] {
			parent[find(i)] = find(g[0])
		}
	}
	members := map[string][]int{}
	for i, r := range rows {
		if c := byID[r.WARCRecordID]; c.NearGroup != "" && len(r.Markdown) >= dedup.MinNearBytes {
			members[c.NearGroup] = append(members[c.NearGroup], i)
		}
	}
	total, joined := 0, 0
	for _, m := range members {
		if len(m) < 2 {
			continue
		}
		total++
		ok := true
		for _, i := range m[1:] {
			ok = ok && find(i) == find(m[0])
		}
		if ok {
			joined++
		}
	}
	if total == 0 || float64(joined) < 0.9*float64(total) {
		t.Errorf("%d of %d truth near groups joined at distance <= 3", joined, total)
	}
	t.Logf("near groups joined %d/%d; near pairs in a truth group %d/%d; report near rows %d", joined, total, good, pairs, rep.Near.Rows)
	if rep.Near.Rows == 0 && pairs > 0 {
		t.Errorf("report found no near duplicates; the brute-force pass found %d pairs", pairs)
	}
}
