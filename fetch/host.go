package fetch

import (
	"context"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// hostTable holds the politeness state of every host in use: a semaphore of
// PerHostConcurrency slots and, with a Rate, a token bucket of burst 1 so
// consecutive request starts are at least 1/Rate apart. Entries nobody has
// used for idleTTL are swept, so a run over millions of hosts keeps only the
// recent ones; idleTTL is at least two rate intervals, so a swept host could
// not have been owed a wait anyway.
type hostTable struct {
	perHost int
	rate    float64
	idleTTL time.Duration
	mu      sync.Mutex
	hosts   map[string]*hostState
	calls   int
}

type hostState struct {
	sem   chan struct{}
	lim   *rate.Limiter
	users int       // goroutines holding or waiting for a slot; guarded by hostTable.mu
	last  time.Time // last release; guarded by hostTable.mu
}

// sweepEvery amortises the sweep: one map scan per this many acquires.
const sweepEvery = 4096

func newHostTable(perHost int, rps float64) *hostTable {
	ttl := 2 * time.Minute
	if rps > 0 {
		ttl = max(ttl, time.Duration(2*float64(time.Second)/rps))
	}
	return &hostTable{perHost: perHost, rate: rps, idleTTL: ttl, hosts: map[string]*hostState{}}
}

// join returns key's state with a user counted, so it cannot be swept while
// the caller waits on it.
func (t *hostTable) join(key string, now time.Time) *hostState {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.calls++
	if t.calls%sweepEvery == 0 {
		t.sweepLocked(now)
	}
	h := t.hosts[key]
	if h == nil {
		h = &hostState{sem: make(chan struct{}, t.perHost)}
		if t.rate > 0 {
			h.lim = rate.NewLimiter(rate.Limit(t.rate), 1)
		}
		t.hosts[key] = h
	}
	h.users++
	return h
}

func (t *hostTable) leave(h *hostState) {
	t.mu.Lock()
	h.users--
	h.last = time.Now()
	t.mu.Unlock()
}

func (t *hostTable) sweepLocked(now time.Time) {
	for k, h := range t.hosts {
		if h.users == 0 && now.Sub(h.last) > t.idleTTL {
			delete(t.hosts, k)
		}
	}
}

// size is the number of hosts tracked (for tests).
func (t *hostTable) size() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.hosts)
}

// acquire takes a slot for key and then waits for its rate token; the slot
// comes first so the token is spent by a request that can start at once.
func (t *hostTable) acquire(ctx context.Context, key string) (release func(), err error) {
	h := t.join(key, time.Now())
	select {
	case h.sem <- struct{}{}:
	case <-ctx.Done():
		t.leave(h)
		return nil, ctx.Err()
	}
	release = func() {
		<-h.sem
		t.leave(h)
	}
	if h.lim != nil {
		if err := h.lim.Wait(ctx); err != nil {
			release()
			return nil, err
		}
	}
	return release, nil
}
