package dedup

import (
	"context"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"
)

// plantedPrints returns n distinct sorted prints: random bases plus variants
// at 0..maxFlip flipped bits, so every distance near the threshold occurs.
func plantedPrints(seed uint64, n, maxFlip int) []uint64 {
	rng := rand.New(rand.NewPCG(seed, 1))
	set := map[uint64]bool{}
	for len(set) < n {
		base := rng.Uint64()
		set[base] = true
		for v := rng.IntN(4); v > 0 && len(set) < n; v-- {
			x := base
			for range rng.IntN(maxFlip + 1) {
				x ^= 1 << rng.IntN(64)
			}
			set[x] = true
		}
	}
	out := make([]uint64, 0, n)
	for x := range set {
		out = append(out, x)
	}
	slices.Sort(out)
	return out
}

func brutePairSet(fps []uint64, d int) map[[2]int]bool {
	out := map[[2]int]bool{}
	for i := range fps {
		for j := i + 1; j < len(fps); j++ {
			if bits.OnesCount64(fps[i]^fps[j]) <= d {
				out[[2]int{i, j}] = true
			}
		}
	}
	return out
}

// Every method the planner can pick (brute force, and the block index with
// each feasible number of key blocks) must report exactly the brute-force
// pairs, each once.
func TestNearPairsMatchBruteForce(t *testing.T) {
	ctx := context.Background()
	for _, d := range []int{0, 1, 3, 6, 10} {
		fps := plantedPrints(uint64(d)+7, 3000, d+2)
		want := brutePairSet(fps, d)
		if d >= 1 && len(want) == 0 {
			t.Fatalf("d=%d: fixture has no pairs", d)
		}
		plans := []plan{{brute: true}}
		for r := 1; r <= 3 && d+r <= 64; r++ {
			plans = append(plans, plan{m: d + r, r: r, widths: blockWidths(d + r)})
		}
		plans = append(plans, choosePlan(len(fps), d))
		for _, p := range plans {
			name := fmt.Sprintf("d=%d/brute", d)
			if !p.brute {
				name = fmt.Sprintf("d=%d/m=%d,r=%d", d, p.m, p.r)
			}
			t.Run(name, func(t *testing.T) {
				got := map[[2]int]bool{}
				emit := func(i, j int) {
					k := [2]int{i, j}
					if i >= j || got[k] {
						t.Fatalf("pair (%d,%d) reported twice or out of order", i, j)
					}
					got[k] = true
				}
				var err error
				if p.brute {
					err = brutePairs(ctx, fps, d, emit)
				} else {
					err = indexPairs(ctx, fps, d, p, 2, emit)
				}
				if err != nil {
					t.Fatal(err)
				}
				for k := range want {
					if !got[k] {
						t.Errorf("missed pair %v at distance %d", k, bits.OnesCount64(fps[k[0]]^fps[k[1]]))
					}
				}
				for k := range got {
					if !want[k] {
						t.Errorf("false pair %v at distance %d", k, bits.OnesCount64(fps[k[0]]^fps[k[1]]))
					}
				}
			})
		}
	}
}

// NearClusters on rows with repeated and zero prints equals connected
// components of the brute-force graph, at every distance tested including
// the extremes 0 and 64.
func TestNearClustersMatchBruteForce(t *testing.T) {
	for _, d := range []int{0, 1, 3, 6, 10, 40, 64} {
		rng := rand.New(rand.NewPCG(uint64(d), 2))
		base := plantedPrints(uint64(d)+99, 600, d+1)
		fps := make([]uint64, 1500)
		for i := range fps {
			switch rng.IntN(10) {
			case 0:
				fps[i] = 0
			default:
				fps[i] = base[rng.IntN(len(base))]
			}
		}
		got, err := NearClusters(context.Background(), fps, d, 2)
		if err != nil {
			t.Fatal(err)
		}
		want := newUnionFind(len(fps))
		for i := range fps {
			for j := i + 1; j < len(fps); j++ {
				if fps[i] != 0 && fps[j] != 0 && bits.OnesCount64(fps[i]^fps[j]) <= d {
					want.union(int32(i), int32(j))
				}
			}
		}
		if !slices.Equal(got, want.roots()) {
			t.Errorf("d=%d: clusters differ from brute force", d)
		}
	}
}

func TestNearClustersRejectsDistance(t *testing.T) {
	for _, d := range []int{-1, 65} {
		if _, err := NearClusters(context.Background(), []uint64{1, 2}, d, 1); err == nil {
			t.Errorf("distance %d accepted", d)
		}
	}
}

func TestPermuteRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	for m := 1; m <= 64; m += 7 {
		widths := blockWidths(m)
		offs := make([]int, m)
		pos := 64
		for i, w := range widths {
			pos -= w
			offs[i] = pos
		}
		order := rng.Perm(m)
		for range 100 {
			x := rng.Uint64()
			if got := unpermute(permute(x, order, widths, offs), order, widths, offs); got != x {
				t.Fatalf("m=%d: unpermute(permute(%#x)) = %#x", m, x, got)
			}
		}
	}
}

func TestRadixSorts(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	v := make([]uint64, 5000)
	for i := range v {
		v[i] = rng.Uint64() >> rng.IntN(64)
	}
	for _, kb := range []int{1, 11, 25, 64} {
		got := slices.Clone(v)
		radixSortTop(got, make([]uint64, len(got)), kb)
		for i := 1; i < len(got); i++ {
			if got[i-1]>>(64-kb) > got[i]>>(64-kb) {
				t.Fatalf("keyBits=%d: not sorted at %d", kb, i)
			}
		}
	}
	ps := make([]printIndex, len(v))
	for i, x := range v {
		ps[i] = printIndex{x, int32(i)}
	}
	sortPrints(ps)
	if !slices.IsSortedFunc(ps, func(a, b printIndex) int {
		if a.fp != b.fp {
			return cmpU(a.fp, b.fp)
		}
		return int(a.i - b.i) // stable: equal prints keep row order
	}) {
		t.Fatal("sortPrints: not sorted and stable")
	}
	// Duplicates so that stability is actually exercised.
	if len(slices.Compact(slices.Sorted(slices.Values(v)))) == len(v) {
		t.Fatal("fixture has no repeated values")
	}
}

func cmpU(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// BenchmarkNearClusters measures the near pass on random prints; run with
// -benchtime=1x and DEDUP_BENCH_ROWS to size it (bench/dedup uses 10M).
func BenchmarkNearClusters(b *testing.B) {
	for _, n := range []int{21_000, 1_000_000} {
		b.Run(fmt.Sprintf("rows=%d/d=3", n), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(5, 5))
			fps := make([]uint64, n)
			for i := range fps {
				fps[i] = rng.Uint64()
			}
			b.ResetTimer()
			for b.Loop() {
				if _, err := NearClusters(context.Background(), fps, 3, 0); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "prints/s")
		})
	}
}
