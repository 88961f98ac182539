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
	var idx []int32
	for i, f := range fps {
		if f != 0 {
			idx = append(idx, int32(i))
		}
	}
	if distance == 64 {
		// Every pair is within 64 bits: one cluster, no index needed.
		for _, i := range idx[min(1, len(idx)):] {
			uf.union(idx[0], i)
		}
		return uf.roots(), nil
	}
	sortIndexByKey(idx, fps)
	// Equal prints are joined here, so the index sees each value once and a
	// thousand copies of one template cannot make a bucket quadratic.
	var distinct []uint64
	var rep []int32 // rep[k] = first row with print distinct[k]
	for k, i := range idx {
		if k > 0 && fps[i] == fps[idx[k-1]] {
			uf.union(rep[len(rep)-1], i)
			continue
		}
		distinct = append(distinct, fps[i])
		rep = append(rep, i)
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

// sortIndexByKey sorts idx by keys[idx[i]] with an LSD radix sort, stable,
// so equal prints stay in row order.
func sortIndexByKey(idx []int32, keys []uint64) {
	tmp := make([]int32, len(idx))
	var count [1 << radixBits]int
	src, dst := idx, tmp
	for lo := 0; lo < 64; lo += radixBits {
		w := min(radixBits, 64-lo)
		mask := uint64(1)<<uint(w) - 1
		clear(count[:])
		for _, i := range src {
			count[keys[i]>>uint(lo)&mask]++
		}
		sum := 0
		for k := range count[:1<<w] {
			sum, count[k] = sum+count[k], sum
		}
		for _, i := range src {
			k := keys[i] >> uint(lo) & mask
			dst[count[k]] = i
			count[k]++
		}
		src, dst = dst, src
	}
	if len(idx) > 0 && &src[0] != &idx[0] {
		copy(idx, src)
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
