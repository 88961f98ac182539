package commoncrawl

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// ErrBadSpec is wrapped by every *SpecError, for callers that only need to
// know a shard spec was rejected.
var ErrBadSpec = errors.New("bad shard spec")

// SpecError reports a malformed or out-of-range shard spec. The CLI maps it
// to a usage error.
type SpecError struct {
	Spec string // the spec as given
	N    int    // number of shards in the manifest
	Msg  string // what is wrong
}

func (e *SpecError) Error() string {
	if e.N <= 0 {
		return fmt.Sprintf("shard spec %q: %s", e.Spec, e.Msg)
	}
	return fmt.Sprintf("shard spec %q: %s (valid: 0-%d, e.g. 0-9,20, or all)", e.Spec, e.Msg, e.N-1)
}

// Unwrap makes errors.Is(err, ErrBadSpec) true.
func (e *SpecError) Unwrap() error { return ErrBadSpec }

// ParseShardSpec expands a shard spec into sorted, deduplicated manifest
// positions in [0, n). The grammar is a comma-separated list of elements,
// each "N", "N-M" (inclusive) or "all"; blanks around elements and numbers
// are ignored. Empty elements, reversed ranges, signs and indices >= n are
// errors rather than being silently dropped, because a typo in a spec would
// otherwise quietly process the wrong shards.
func ParseShardSpec(spec string, n int) ([]int, error) {
	bad := func(format string, a ...any) error {
		return &SpecError{Spec: spec, N: n, Msg: fmt.Sprintf(format, a...)}
	}
	if n <= 0 {
		return nil, bad("the manifest lists no shards")
	}
	if strings.TrimSpace(spec) == "" {
		return nil, bad("empty spec")
	}
	seen := make(map[int]struct{})
	for _, part := range strings.Split(spec, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			return nil, bad("empty element between commas")
		}
		if strings.EqualFold(part, "all") {
			for i := 0; i < n; i++ {
				seen[i] = struct{}{}
			}
			continue
		}
		if strings.HasPrefix(part, "-") {
			return nil, bad("negative index %q", part)
		}
		lo, hi := part, part
		if i := strings.IndexByte(part, '-'); i >= 0 {
			lo, hi = strings.TrimSpace(part[:i]), strings.TrimSpace(part[i+1:])
			if lo == "" || hi == "" {
				return nil, bad("incomplete range %q", part)
			}
			if strings.HasPrefix(hi, "-") {
				return nil, bad("negative index in range %q", part)
			}
		}
		a, err := parseIndex(lo, n)
		if err != nil {
			return nil, bad("%v", err)
		}
		b, err := parseIndex(hi, n)
		if err != nil {
			return nil, bad("%v", err)
		}
		if a > b {
			return nil, bad("reversed range %q; write %d-%d", part, b, a)
		}
		for i := a; i <= b; i++ {
			seen[i] = struct{}{}
		}
	}
	out := make([]int, 0, len(seen))
	for i := range seen {
		out = append(out, i)
	}
	sort.Ints(out)
	return out, nil
}

// parseIndex accepts plain decimal digits only: "+3", "0x3" and "3e2" are
// more likely typos than intent.
func parseIndex(s string, n int) (int, error) {
	if s == "" {
		return 0, errors.New("missing number")
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return 0, fmt.Errorf("%q is not a shard number", s)
		}
	}
	v, err := strconv.ParseUint(s, 10, 63)
	if err != nil || v >= uint64(n) {
		return 0, fmt.Errorf("shard %s is out of range: the manifest has %d shards", s, n)
	}
	return int(v), nil
}

// Limit returns the first k indices of idx, or idx unchanged when k <= 0
// (no limit) or k >= len(idx). It backs --limit, applied after expansion so
// "--shards 100-199 --limit 5" means shards 100-104.
func Limit(idx []int, k int) []int {
	if k <= 0 || k >= len(idx) {
		return idx
	}
	return idx[:k]
}
