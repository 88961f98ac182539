package fetch

import (
	"context"
	"sync"

	"golang.org/x/time/rate"
)

// hostTable holds the politeness state of every host seen in the run: a
// semaphore of PerHostConcurrency slots and, with a Rate, a token bucket of
// burst 1 so consecutive request starts are at least 1/Rate apart.
type hostTable struct {
	perHost int
	rate    float64
	mu      sync.Mutex
	hosts   map[string]*hostState
}

type hostState struct {
	sem chan struct{}
	lim *rate.Limiter
}

func newHostTable(perHost int, rps float64) *hostTable {
	return &hostTable{perHost: perHost, rate: rps, hosts: map[string]*hostState{}}
}

func (t *hostTable) get(key string) *hostState {
	t.mu.Lock()
	defer t.mu.Unlock()
	h := t.hosts[key]
	if h == nil {
		h = &hostState{sem: make(chan struct{}, t.perHost)}
		if t.rate > 0 {
			h.lim = rate.NewLimiter(rate.Limit(t.rate), 1)
		}
		t.hosts[key] = h
	}
	return h
}

// acquire takes a slot for key and then waits for its rate token; the slot
// comes first so the token is spent by a request that can start at once.
func (t *hostTable) acquire(ctx context.Context, key string) (release func(), err error) {
	h := t.get(key)
	select {
	case h.sem <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	release = func() { <-h.sem }
	if h.lim != nil {
		if err := h.lim.Wait(ctx); err != nil {
			release()
			return nil, err
		}
	}
	return release, nil
}
