package dedup

import (
	"context"
	"math"
	"math/bits"
	"slices"
	"sync"
)

// The near pass finds every pair of fingerprints within Hamming distance d.
//
// Index (Manku, Jain, Das Sarma 2007, exact by pigeonhole): cut the 64 bits
// into m = d+r contiguous blocks. Two prints within distance d differ in at
// most d blocks, so they agree on at least r whole blocks, and therefore on
// every block of some r-subset. For each of the C(m, r) subsets, the prints
// are permuted so the subset's blocks form the top bits (the key), sorted by
// key, and every pair inside a run of equal keys is verified by popcount.
// Nothing is capped, so no pair is dropped; r is picked by a cost model, and
// when no r beats it (large d, or few prints) the pass is a brute-force scan.

// plan is the chosen method for one near pass.
type plan struct {
	brute  bool
	m, r   int
	widths []int // widths[i] = bits in block i; block 0 is the top bits
}

// cost units: one element visit in a sort pass, one candidate verification.
const (
	sortPassCost = 2.0
	verifyCost   = 1.0
	bruteCost    = 0.5 // tight popcount loop, no memory traffic
	maxTables    = 4096
)

func choosePlan(n, d int) plan {
	pairs := float64(n) * float64(n-1) / 2
	best := plan{brute: true}
	bestCost := pairs * bruteCost
	for r := 1; d+r <= 64; r++ {
		m := d + r
		tables := binomial(m, r)
		if tables > maxTables {
			break
		}
		widths := blockWidths(m)
		keyBits := 0
		for _, w := range widths[m-r:] { // the r narrowest blocks: worst case
			keyBits += w
		}
		passes := float64((keyBits + radixBits - 1) / radixBits)
		c := tables * (float64(n)*(passes+2)*sortPassCost + pairs/math.Exp2(float64(keyBits))*verifyCost)
		if c < bestCost {
			best, bestCost = plan{m: m, r: r, widths: widths}, c
		}
	}
	return best
}

func binomial(n, k int) float64 {
	c := 1.0
	for i := 1; i <= k; i++ {
		c = c * float64(n-k+i) / float64(i)
	}
	return math.Round(c)
}

// blockWidths splits 64 bits into m blocks, the wider ones first.
func blockWidths(m int) []int {
	w := make([]int, m)
	for i := range w {
		w[i] = 64 / m
		if i < 64%m {
			w[i]++
		}
	}
	return w
}

// forEachNearPair calls fn(i, j), i < j, exactly once for every pair of
// distinct prints fps[i], fps[j] within Hamming distance d (0 <= d <= 64),
// in a deterministic order. fps must be sorted ascending and duplicate-free
// (callers join equal prints themselves, which also keeps runs of identical
// templated pages from turning a bucket quadratic). It uses at most workers
// goroutines and, per worker, two scratch arrays as long as fps.
func forEachNearPair(ctx context.Context, fps []uint64, d, workers int, fn func(i, j int)) error {
	if len(fps) < 2 {
		return nil
	}
	p := choosePlan(len(fps), d)
	if p.brute {
		return brutePairs(ctx, fps, d, fn)
	}
	return indexPairs(ctx, fps, d, p, workers, fn)
}

func brutePairs(ctx context.Context, fps []uint64, d int, fn func(i, j int)) error {
	for i, a := range fps {
		if i&1023 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		for j := i + 1; j < len(fps); j++ {
			if bits.OnesCount64(a^fps[j]) <= d {
				fn(i, j)
			}
		}
	}
	return nil
}

// layout is one table: which blocks form the key, and the bit permutation
// that moves them to the top.
type layout struct {
	subset  uint64 // bitmask over blocks
	order   []int  // blocks in permuted order, key blocks first
	keyBits int
}

func indexPairs(ctx context.Context, fps []uint64, d int, p plan, workers int, fn func(i, j int)) error {
	offs := make([]int, p.m) // offs[i] = shift of block i (block 0 = top bits)
	pos := 64
	for i, w := range p.widths {
		pos -= w
		offs[i] = pos
	}
	var tables []layout
	combinations(p.m, p.r, func(c []int) {
		l := layout{}
		for _, b := range c {
			l.subset |= 1 << b
			l.order = append(l.order, b)
			l.keyBits += p.widths[b]
		}
		for b := range p.m {
			if l.subset&(1<<b) == 0 {
				l.order = append(l.order, b)
			}
		}
		tables = append(tables, l)
	})

	workers = max(1, min(workers, len(tables)))
	found := make([][][2]int32, len(tables))
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			vals := make([]uint64, len(fps))
			tmp := make([]uint64, len(fps))
			for t := range next {
				found[t] = scanTable(fps, d, p, offs, tables[t], vals, tmp)
			}
		})
	}
	var err error
	for t := range tables {
		if err = ctx.Err(); err != nil {
			break
		}
		next <- t
	}
	close(next)
	wg.Wait()
	if err != nil {
		return err
	}
	for _, f := range found {
		for _, pr := range f {
			fn(int(pr[0]), int(pr[1]))
		}
	}
	return nil
}

// scanTable sorts the permuted prints by key and verifies every pair within a
// run of equal keys. A pair agreeing on several r-subsets would be found in
// several tables; it is kept only in the table of the lowest-numbered r
// agreeing blocks, which combinations enumerates first.
func scanTable(fps []uint64, d int, p plan, offs []int, l layout, vals, tmp []uint64) [][2]int32 {
	for i, f := range fps {
		vals[i] = permute(f, l.order, p.widths, offs)
	}
	radixSortTop(vals, tmp, l.keyBits)
	shift := uint(64 - l.keyBits)
	var out [][2]int32
	for s := 0; s < len(vals); {
		e := s + 1
		k := vals[s] >> shift
		for e < len(vals) && vals[e]>>shift == k {
			e++
		}
		for i := s; i < e; i++ {
			for j := i + 1; j < e; j++ {
				if bits.OnesCount64(vals[i]^vals[j]) > d {
					continue
				}
				a := unpermute(vals[i], l.order, p.widths, offs)
				b := unpermute(vals[j], l.order, p.widths, offs)
				if lowestBits(agreeMask(a, b, p.widths, offs), p.r) != l.subset {
					continue
				}
				ia, _ := slices.BinarySearch(fps, a)
				ib, _ := slices.BinarySearch(fps, b)
				if ia > ib {
					ia, ib = ib, ia
				}
				out = append(out, [2]int32{int32(ia), int32(ib)})
			}
		}
		s = e
	}
	return out
}

func permute(f uint64, order, widths, offs []int) uint64 {
	var v uint64
	for _, b := range order {
		w := uint(widths[b])
		v = v<<w | f>>uint(offs[b])&(1<<w-1)
	}
	return v
}

func unpermute(v uint64, order, widths, offs []int) uint64 {
	var f uint64
	pos := 64
	for _, b := range order {
		w := widths[b]
		pos -= w
		f |= (v >> uint(pos) & (1<<uint(w) - 1)) << uint(offs[b])
	}
	return f
}

func agreeMask(a, b uint64, widths, offs []int) uint64 {
	x := a ^ b
	var m uint64
	for i, w := range widths {
		if x>>uint(offs[i])&(1<<uint(w)-1) == 0 {
			m |= 1 << i
		}
	}
	return m
}

// lowestBits keeps the r lowest set bits of m.
func lowestBits(m uint64, r int) uint64 {
	var out uint64
	for ; r > 0 && m != 0; r-- {
		low := m & -m
		out |= low
		m &^= low
	}
	return out
}

// combinations calls fn with every r-subset of 0..m-1 in lexicographic order.
func combinations(m, r int, fn func([]int)) {
	c := make([]int, r)
	for i := range c {
		c[i] = i
	}
	for {
		fn(c)
		i := r - 1
		for i >= 0 && c[i] == m-r+i {
			i--
		}
		if i < 0 {
			return
		}
		c[i]++
		for j := i + 1; j < r; j++ {
			c[j] = c[j-1] + 1
		}
	}
}

const radixBits = 11

// radixSortTop sorts v by its top keyBits bits (LSD radix, stable), leaving
// the order within equal keys unspecified. tmp must be as long as v.
func radixSortTop(v, tmp []uint64, keyBits int) {
	var count [1 << radixBits]int
	src, dst := v, tmp
	for lo := 64 - keyBits; lo < 64; lo += radixBits {
		w := min(radixBits, 64-lo)
		mask := uint64(1)<<uint(w) - 1
		clear(count[:])
		for _, x := range src {
			count[x>>uint(lo)&mask]++
		}
		sum := 0
		for i := range count[:1<<w] {
			sum, count[i] = sum+count[i], sum
		}
		for _, x := range src {
			k := x >> uint(lo) & mask
			dst[count[k]] = x
			count[k]++
		}
		src, dst = dst, src
	}
	if &src[0] != &v[0] {
		copy(v, src)
	}
}
