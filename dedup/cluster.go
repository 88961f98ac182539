package dedup

import (
	"context"
	"fmt"
	"runtime"
)

// NearClusters groups fingerprints that are within distance bits of each
// other, transitively (single-linkage, union-find): it returns, for every
// index i, the smallest index of i's cluster. A zero print means "no
// fingerprint" and is never joined. The answer is the same as a brute-force
// pairwise scan for every distance 0..64; workers bounds the goroutines of
// the index (0 means GOMAXPROCS).
func NearClusters(ctx context.Context, fps []uint64, distance, workers int) ([]int32, error) {
	if distance < 0 || distance > 64 {
		return nil, fmt.Errorf("dedup: distance %d out of range 0..64", distance)
	}
	if len(fps) > 1<<31-1 {
		return nil, fmt.Errorf("dedup: %d fingerprints exceed the 2^31 limit of the index", len(fps))
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	uf := newUnionFind(len(fps))
	idx := make([]printIndex, 0, len(fps))
	for i, f := range fps {
		if f != 0 {
			idx = append(idx, printIndex{f, int32(i)})
		}
	}
	if distance == 64 {
		// Every pair is within 64 bits: one cluster, no index needed.
		for _, p := range idx[min(1, len(idx)):] {
			uf.union(idx[0].i, p.i)
		}
		return uf.roots(), nil
	}
	sortPrints(idx)
	// Equal prints are joined here, so the index sees each value once and a
	// thousand copies of one template cannot make a bucket quadratic.
	distinct := make([]uint64, 0, len(idx))
	rep := make([]int32, 0, len(idx)) // rep[k] = first row with print distinct[k]
	for k, p := range idx {
		if k > 0 && p.fp == idx[k-1].fp {
			uf.union(rep[len(rep)-1], p.i)
			continue
		}
		distinct = append(distinct, p.fp)
		rep = append(rep, p.i)
	}
	idx = nil
	err := forEachNearPair(ctx, distinct, distance, workers, func(a, b int) {
		uf.union(rep[a], rep[b])
	})
	if err != nil {
		return nil, err
	}
	return uf.roots(), nil
}

type printIndex struct {
	fp uint64
	i  int32
}

// sortPrints sorts by print with a stable LSD radix sort, so equal prints
// stay in row order. Sorting (print, row) pairs rather than row indexes
// keeps every pass sequential in memory; on 10M rows the indirect version
// spent most of its time in cache misses.
func sortPrints(v []printIndex) {
	tmp := make([]printIndex, len(v))
	var count [1 << radixBits]int
	src, dst := v, tmp
	for lo := 0; lo < 64; lo += radixBits {
		w := min(radixBits, 64-lo)
		mask := uint64(1)<<uint(w) - 1
		clear(count[:])
		for _, p := range src {
			count[p.fp>>uint(lo)&mask]++
		}
		sum := 0
		for k := range count[:1<<w] {
			sum, count[k] = sum+count[k], sum
		}
		for _, p := range src {
			k := p.fp >> uint(lo) & mask
			dst[count[k]] = p
			count[k]++
		}
		src, dst = dst, src
	}
	if len(v) > 0 && &src[0] != &v[0] {
		copy(v, src)
	}
}

// unionFind keeps the smallest index as the root of each set, so a root is
// also the first row of its cluster in file order.
type unionFind []int32

func newUnionFind(n int) unionFind {
	u := make(unionFind, n)
	for i := range u {
		u[i] = int32(i)
	}
	return u
}

func (u unionFind) find(x int32) int32 {
	for u[x] != x {
		u[x] = u[u[x]]
		x = u[x]
	}
	return x
}

func (u unionFind) union(a, b int32) {
	ra, rb := u.find(a), u.find(b)
	switch {
	case ra < rb:
		u[rb] = ra
	case rb < ra:
		u[ra] = rb
	}
}

func (u unionFind) roots() []int32 {
	for i := range u {
		u[i] = u.find(int32(i))
	}
	return u
}
